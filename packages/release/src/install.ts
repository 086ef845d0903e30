import { readFileSync, realpathSync } from "node:fs";
import { readFile, rename, rm, symlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { isReleaseVersion } from "@llmgw/domain";
import { releaseDirFromEnv } from "./config";
import { ReleaseError } from "./errors";

/** Where the running release lives: `<root>/llmgw-<version>`, with `<root>/current` pointing at it. */
export interface Install {
  releaseDir: string;
  root: string;
  version: string;
}

const FROM_CHECKOUT =
  "this process runs from a checkout (LLMGW_RELEASE_DIR is not set), not from an installed release; " +
  "a checkout is upgraded with git, not by llmgw";

/**
 * The installation this process runs from, or null when it runs from a checkout. Throws, saying
 * why, when the layout is not the one an upgrade can swap: the folder is not `llmgw-<VERSION>`, or
 * `<root>/current` does not point at it (someone changed it by hand, or an upgrade is half done).
 */
export function currentInstall(releaseDir = releaseDirFromEnv()): Install | null {
  if (releaseDir === undefined) return null;
  // bin/llmgw may be started through `current`; the release is the folder it resolves to.
  const dir = realpathOrNull(resolve(releaseDir)) ?? resolve(releaseDir);
  const version = readVersionFile(dir);
  if (basename(dir) !== `llmgw-${version}`) {
    throw new ReleaseError(
      "not-installed",
      `${dir} holds version ${version}, so it should be named llmgw-${version}`,
    );
  }
  const root = dirname(dir);
  const currentTarget = realpathOrNull(join(root, "current"));
  if (currentTarget !== realpathOrNull(dir)) {
    throw new ReleaseError(
      "not-installed",
      currentTarget === null
        ? `${join(root, "current")} does not exist; it should be a symlink to ${basename(dir)}`
        : `${join(root, "current")} points at ${currentTarget}, not at the running release ${dir}`,
    );
  }
  return { releaseDir: dir, root, version };
}

/** The installation, or a sentence saying why this process cannot upgrade itself. */
export function installOrWhyNot(
  releaseDir = releaseDirFromEnv(),
): { install: Install } | { reason: string } {
  try {
    const install = currentInstall(releaseDir);
    return install ? { install } : { reason: FROM_CHECKOUT };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}

function readVersionFile(dir: string): string {
  let text: string;
  try {
    text = readFileSync(join(dir, "VERSION"), "utf8");
  } catch {
    throw new ReleaseError(
      "not-installed",
      `${dir} has no VERSION file; LLMGW_RELEASE_DIR must name a release folder`,
    );
  }
  const version = text.trim();
  if (!isReleaseVersion(version)) {
    throw new ReleaseError(
      "not-installed",
      `${join(dir, "VERSION")} does not hold a release version`,
    );
  }
  return version;
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * Points `<root>/current` at `llmgw-<version>`: a new relative symlink under a temporary name,
 * renamed over `current`, so a reader (systemd starting the service) sees the old or the new
 * release, never none. The old release folder stays, to go back by hand.
 */
export async function swapCurrent(root: string, version: string): Promise<void> {
  const top = `llmgw-${version}`;
  const written = await readFile(join(root, top, "VERSION"), "utf8").catch(() => null);
  if (written?.trim() !== version) {
    throw new ReleaseError(
      "not-installed",
      `${join(root, top)} is not an unpacked release of ${version}`,
    );
  }
  const temporary = join(root, `.current.${process.pid}.tmp`);
  await rm(temporary, { force: true });
  await symlink(top, temporary);
  try {
    await rename(temporary, join(root, "current"));
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
