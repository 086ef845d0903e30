// `llmgw server add`: makes a further control plane's home from the first one's. Control planes
// on one store must share three things: the cluster CA (agents pin it, and the control planes
// authenticate each other with certificates it signed), the master key (the sealed secrets and the
// replica-key secret in the store are sealed with it) and the store itself. Everything else —
// ports, the server certificate's names, the units — belongs to the new machine. No admin and no
// join token are made: the first control plane already made them in the shared store.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { messageOf } from "@llmgw/domain";
import { ensureServerPki, serverPkiPaths } from "@llmgw/pki";
import { ADD_USAGE, parseAddArgs, type AddOptions } from "./config";
import { homeSettings, writeSettings, writeUnits } from "./home-files";
import { readSettingsFile, settingsPath } from "./settings-file";

const MASTER_KEY_FILE = "master.key";
/**
 * Settings the control planes must agree on, carried from the first home's server.env when set
 * there: the store, a master key given as a setting, and the leader lease's term.
 */
const SHARED_SETTINGS = ["DATABASE_URL", "LLMGW_MASTER_KEY", "LLMGW_LEADER_LEASE_MS"] as const;

export class AddRefusal extends Error {
  override readonly name = "AddRefusal";
}

export async function runAdd(argv: string[]): Promise<number> {
  let options: AddOptions;
  try {
    options = parseAddArgs(argv);
  } catch (error) {
    process.stderr.write(`llmgw server add: ${messageOf(error)}\n\n${ADD_USAGE}`);
    return 2;
  }
  try {
    await addControlPlane(options, (line) => process.stdout.write(`${line}\n`));
    return 0;
  } catch (error) {
    process.stderr.write(`llmgw server add: ${messageOf(error)}\n`);
    return 1;
  }
}

export async function addControlPlane(options: AddOptions, say: (line: string) => void) {
  const first = readFirstHome(options.from);
  refuseExistingHome(options.homeDir);
  mkdirSync(join(options.homeDir, "pki"), { recursive: true, mode: 0o700 });
  say(`llmgw server add: ${options.homeDir}, from ${first.homeDir}`);
  const from = serverPkiPaths(first.homeDir);
  const to = serverPkiPaths(options.homeDir);
  copyFile(from.caKeyPath, to.caKeyPath, 0o600);
  copyFile(from.caCertPath, to.caCertPath, 0o644);
  // ensureServerPki finds the copied CA and issues this machine's certificate from it.
  const pki = await ensureServerPki(options.homeDir, {
    names: options.names,
    addresses: options.addresses,
  });
  say(`  CA        ${pki.caCertPath} (copied, sha256 ${pki.caFingerprint})`);
  say(`  server    ${pki.certPath} (issued for this machine)`);
  if (first.masterKeyPath) {
    copyFile(first.masterKeyPath, join(options.homeDir, MASTER_KEY_FILE), 0o600);
    say(`  key       ${join(options.homeDir, MASTER_KEY_FILE)} (copied)`);
  } else say("  key       LLMGW_MASTER_KEY (copied into server.env)");
  say(`  settings  ${writeSettings(options.homeDir, homeSettings(options, first.shared))}`);
  say("  store     PostgreSQL (DATABASE_URL from the first control plane)");
  say(`  units     ${writeUnits(options)}`);
  say("");
  say("Next: install and start the units as for the first control plane (docs/install.md);");
  say("this one signs in the same people and serves the same fleet as the first.");
}

interface FirstHome {
  homeDir: string;
  shared: Array<[string, string]>;
  /** null when the master key is a setting (LLMGW_MASTER_KEY) carried in `shared`. */
  masterKeyPath: string | null;
}

function readFirstHome(from: string): FirstHome {
  if (looksLikeAddress(from))
    throw new AddRefusal(
      `--from ${from} is an address; adding from a running control plane's address is not built: ` +
        "give --from the first control plane's home directory (copy it to this machine, or run add on the first machine and copy the new home over)",
    );
  const homeDir = resolve(from);
  const pki = serverPkiPaths(homeDir);
  const missing = [pki.caCertPath, pki.caKeyPath, settingsPath(homeDir)].filter(
    (path) => !existsSync(path),
  );
  if (missing.length > 0)
    throw new AddRefusal(
      `${homeDir} is not a control plane's home (made by \`llmgw server init\`): ${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} missing`,
    );
  const settings = readSettingsFile(homeDir);
  if (!settings.DATABASE_URL)
    throw new AddRefusal(
      `the control plane in ${homeDir} keeps its store in embedded PGlite, which is one process's store and cannot be shared; ` +
        `move it to PostgreSQL first with \`llmgw server migrate-store --home ${homeDir} --to postgres://…\`, then add control planes`,
    );
  const shared = SHARED_SETTINGS.flatMap((name): Array<[string, string]> => {
    const value = settings[name];
    return value === undefined ? [] : [[name, value]];
  });
  if (settings.LLMGW_MASTER_KEY) return { homeDir, shared, masterKeyPath: null };
  const masterKeyPath = join(homeDir, MASTER_KEY_FILE);
  if (!existsSync(masterKeyPath))
    throw new AddRefusal(
      `${masterKeyPath} is missing: the first control plane makes it when it first starts; start it once (or, if its LLMGW_MASTER_KEY comes from its environment, set the same one in this home's server.env)`,
    );
  return { homeDir, shared, masterKeyPath };
}

/** A URL, or host:port that is not a directory here. */
function looksLikeAddress(from: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(from)) return true;
  return !existsSync(from) && /^[^/]+:\d+$/.test(from);
}

function refuseExistingHome(homeDir: string): void {
  const found = [
    settingsPath(homeDir),
    join(homeDir, "pki"),
    join(homeDir, MASTER_KEY_FILE),
  ].filter((path) => existsSync(path));
  if (existsSync(homeDir) && !statSync(homeDir).isDirectory())
    throw new AddRefusal(`${homeDir} is a file, not a directory`);
  if (found.length > 0)
    throw new AddRefusal(
      `${homeDir} already holds a home (${found.join(", ")}); \`llmgw server add\` never writes over one: give --home a new or empty directory`,
    );
}

/** Copies a key or certificate, never over an existing file. */
function copyFile(from: string, to: string, mode: number): void {
  writeFileSync(to, readFileSync(from), { mode, flag: "wx" });
}
