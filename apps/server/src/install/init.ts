// `llmgw server init`: makes a control plane's home, ready for systemd. Each step keeps what is
// already there — a settings file, a CA, an admin — so running it again is safe; what it makes new
// each time is a join token (they expire) and the unit files (they only describe the install).
import { mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { messageOf } from "@llmgw/domain";
import { openStore } from "@llmgw/db";
import { ensureServerPki } from "@llmgw/pki";
import { parseServerConfig } from "../config";
import { ensureFirstAdmin } from "../identity/auth-service";
import { createJoinTokens } from "../pki/join-tokens";
import { INIT_USAGE, parseInitArgs, type InitOptions } from "./config";
import { homeSettings, refuseWhileRunning, writeSettings, writeUnits } from "./home-files";

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
  const storeUrl: Array<[string, string]> = env.DATABASE_URL
    ? [["DATABASE_URL", env.DATABASE_URL]]
    : [];
  say(`  settings  ${writeSettings(options.homeDir, homeSettings(options, storeUrl))}`);
  const config = parseServerConfig(["--home", options.homeDir], { ...env, LLMGW_HOME: undefined });
  await refuseWhileRunning(
    config,
    "stop it before running init again (a new join token without stopping: llmgw ctl join-tokens create)",
  );
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
