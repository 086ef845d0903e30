// `llmgw server init`: makes a control plane's home, ready for systemd. Each step keeps what is
// already there — a settings file, a CA, an admin — so running it again is safe; what it makes new
// each time is a join token (they expire) and the unit files (they only describe the install).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { messageOf } from "@llmgw/domain";
import { openStore } from "@llmgw/db";
import { ensureServerPki } from "@llmgw/pki";
import { ConfigError, parseServerConfig, type ServerConfig } from "../config";
import { ensureFirstAdmin } from "../identity/auth-service";
import { createJoinTokens } from "../pki/join-tokens";
import { formatSettingsFile, settingsPath } from "./settings-file";
import { INIT_USAGE, parseInitArgs, type InitOptions } from "./config";
import { systemdUnits } from "./systemd-units";

/** How long the join token init prints stays valid, and how many nodes it may join. */
const INIT_TOKEN_TTL_S = 24 * 3_600;
const INIT_TOKEN_USES = 100;

export async function runInit(argv: string[]): Promise<number> {
  let options: InitOptions;
  try {
    options = parseInitArgs(argv);
  } catch (error) {
    process.stderr.write(`llmgw server init: ${messageOf(error)}\n\n${INIT_USAGE}`);
    return 2;
  }
  try {
    await init(options, (line) => process.stdout.write(`${line}\n`));
    return 0;
  } catch (error) {
    process.stderr.write(`llmgw server init: ${messageOf(error)}\n`);
    return 1;
  }
}

async function init(options: InitOptions, say: (line: string) => void) {
  const { env } = options;
  mkdirSync(options.homeDir, { recursive: true, mode: 0o700 });
  say(`llmgw server init: ${options.homeDir}`);
  say(`  settings  ${writeSettings(options, env)}`);
  const config = parseServerConfig(["--home", options.homeDir], { ...env, LLMGW_HOME: undefined });
  await refuseWhileRunning(config);
  const pki = await ensureServerPki(options.homeDir, {
    names: options.names,
    addresses: options.addresses,
  });
  say(`  CA        ${pki.caCertPath} (sha256 ${pki.caFingerprint})`);
  say(`  server    ${pki.certPath}`);
  const store = await openStore(config.store);
  let token: string;
  try {
    say(
      `  store     ${config.store.kind === "pglite" ? `PGlite in ${config.store.dataDir}` : "PostgreSQL (DATABASE_URL)"}, migrated`,
    );
    const admin = await ensureFirstAdmin(store.db, env.LLMGW_ADMIN_PASSWORD ?? null);
    say(
      admin
        ? `  admin     user ${admin.username}, password ${env.LLMGW_ADMIN_PASSWORD ? "from LLMGW_ADMIN_PASSWORD" : `${admin.password}   (shown once)`}`
        : "  admin     kept: the store already has people (sign in as before)",
    );
    const tokens = createJoinTokens(store.db, Date.now, () => ({
      agentUrls: [],
      caSha256: pki.caFingerprint,
    }));
    token = (
      await tokens.create(
        {
          ttlSeconds: INIT_TOKEN_TTL_S,
          uses: INIT_TOKEN_USES,
          description: "made by llmgw server init",
        },
        { username: "llmgw server init" },
      )
    ).token;
  } finally {
    await store.close();
  }
  say(`  units     ${writeUnits(options)}`);
  printNext(options, pki.caFingerprint, token, say);
}

/** Writes `<home>/server.env` the first time; afterwards the operator's edits are kept. */
function writeSettings(options: InitOptions, env: NodeJS.ProcessEnv): string {
  const path = settingsPath(options.homeDir);
  if (existsSync(path)) return `${path} (kept: it already exists)`;
  const tlsNames = [...options.names, ...options.addresses];
  const settings: Array<[string, string]> = [
    ["LLMGW_PORT", options.port],
    ["LLMGW_AGENT_PORT", options.agentPort],
    // An installed control plane serves ctl and the console proxy from other machines too.
    ["LLMGW_BIND", "0.0.0.0"],
    ...(tlsNames.length > 0
      ? [["LLMGW_AGENT_TLS_NAMES", tlsNames.join(",")] as [string, string]]
      : []),
    ...(env.DATABASE_URL ? [["DATABASE_URL", env.DATABASE_URL] as [string, string]] : []),
  ];
  writeFileSync(path, formatSettingsFile(settings), { mode: 0o600 });
  return `${path} (written)`;
}

/** PGlite is one process's: opening it under a running server would corrupt it. */
async function refuseWhileRunning(config: ServerConfig): Promise<void> {
  const url = `http://127.0.0.1:${config.httpPort}/healthz`;
  const isUp = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
    (res) => res.ok,
    () => false,
  );
  if (isUp)
    throw new ConfigError(
      `a server answers at ${url}: stop it before running init again (a new join token without stopping: llmgw ctl join-tokens create)`,
    );
}

function writeUnits(options: InitOptions): string {
  const dir = join(options.homeDir, "systemd");
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const units = systemdUnits({
    installRoot: options.installRoot,
    homeDir: options.homeDir,
    agentDataDir: options.agentDataDir,
    user: options.user,
    apiUrl: `http://127.0.0.1:${options.port}`,
  });
  for (const unit of units) writeFileSync(join(dir, unit.name), unit.text, { mode: 0o644 });
  return `${dir}/{${units.map((unit) => unit.name).join(",")}}`;
}

function printNext(
  options: InitOptions,
  fingerprint: string,
  token: string,
  say: (line: string) => void,
) {
  const host = options.names[0] ?? options.addresses[0] ?? hostname();
  const bin = `${options.installRoot}/current/bin/llmgw`;
  say("");
  say("Next:");
  say(
    `  1. sudo useradd --system --home ${options.homeDir} ${options.user}; sudo chown -R ${options.user}: ${options.homeDir}`,
  );
  say(
    `  2. sudo cp ${options.homeDir}/systemd/*.service /etc/systemd/system/ && sudo systemctl daemon-reload`,
  );
  say("  3. sudo systemctl enable --now llmgw-server llmgw-web");
  say(
    `  4. On each node (this token joins up to ${INIT_TOKEN_USES} nodes within 24 h; more: llmgw ctl join-tokens create):`,
  );
  say(`       sudo install -d -m 0700 -o ${options.user} ${options.agentDataDir}`);
  say(
    `       sudo -u ${options.user} ${bin} agent join wss://${host}:${options.agentPort} --token ${token} --ca-sha256 ${fingerprint} --data-dir ${options.agentDataDir}`,
  );
  say("       sudo systemctl enable --now llmgw-agent");
}
