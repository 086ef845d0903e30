// Where llmgw finds its own files (migrations, the console, the `llmgw` command), decided in one
// place. A release (scripts/release.mjs) is one bundle at <release>/lib/llmgw.mjs, so there they are
// found from the bundle; a checkout finds them from its root, three folders above this file. A
// separate entry (`@llmgw/domain/install`) because the console, which imports the domain, must not
// see a module-relative URL: its bundler would try to pack the folder it points at.
import { fileURLToPath } from "node:url";
import { IS_RELEASE_BUILD } from "./version";

/** A command line that runs `llmgw`; append the subcommand and its arguments to `prefixArgs`. */
export interface LlmgwCommand {
  command: string;
  prefixArgs: readonly string[];
}

export interface InstallLayout {
  isRelease: boolean;
  /** The release's top folder (llmgw-V/) or the checkout's root. */
  rootDir: string;
  /** The Drizzle migrations, applied at every server start. */
  migrationsDir: string;
  /** The console: Next's standalone output in a release, the apps/web package in a checkout. */
  webDir: string;
  /** The JavaScript entry of `llmgw`, run by node: the bundle, or the checkout's bin script. */
  entryScript: string;
  /** `llmgw` itself: the release's bin/llmgw (it finds node), or node with the checkout's entry. */
  command: LlmgwCommand;
}

/**
 * The layout seen from a module at `moduleUrl`: the bundle's URL in a release, this file's in a
 * checkout. `nodePath` is the node that runs a checkout's entry (process.execPath).
 */
export function installLayout(
  isRelease: boolean,
  moduleUrl: string,
  nodePath: string,
): InstallLayout {
  const at = (relative: string) => fileURLToPath(new URL(relative, moduleUrl));
  if (isRelease) {
    const rootDir = at("../");
    return {
      isRelease,
      rootDir,
      migrationsDir: at("../drizzle"),
      webDir: at("../web/"),
      entryScript: at("./llmgw.mjs"),
      command: { command: at("../bin/llmgw"), prefixArgs: [] },
    };
  }
  const entryScript = at("../../cli/bin/llmgw.mjs");
  return {
    isRelease,
    rootDir: at("../../../"),
    migrationsDir: at("../../../drizzle"),
    webDir: at("../../../apps/web/"),
    entryScript,
    command: { command: nodePath, prefixArgs: [entryScript] },
  };
}

/** This process's layout. */
export const INSTALL: InstallLayout = installLayout(
  IS_RELEASE_BUILD,
  import.meta.url,
  process.execPath,
);
