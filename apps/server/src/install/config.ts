// What `llmgw server init` is told: its flags, and the environment it copies settings from.
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";

export const INIT_USAGE = `usage: llmgw server init [--home DIR] [--name NAME]… [--address IP]…
                         [--port N] [--agent-port N] [--install-root DIR]
                         [--agent-data-dir DIR] [--user NAME]

  --home DIR            the control plane's home (default: LLMGW_HOME, else ./.llmgw)
  --name NAME           a DNS name agents reach this machine by (repeat for more)
  --address IP          an address agents reach this machine at (repeat for more)
  --port N              the API and console proxy port (default 8080)
  --agent-port N        the agent port, TLS (default 8081)
  --install-root DIR    where releases are unpacked beside a \`current\` link (default /opt/llmgw,
                        or the root of the release this runs from)
  --agent-data-dir DIR  the agents' data directory in the unit file (default /var/lib/llmgw-agent)
  --user NAME           the account the services run as (default llmgw)
`;

export interface InitOptions {
  /** The environment init runs in: the settings it copies and the store it opens. */
  env: NodeJS.ProcessEnv;
  homeDir: string;
  names: string[];
  addresses: string[];
  port: string;
  agentPort: string;
  installRoot: string;
  agentDataDir: string;
  user: string;
}

/** The flags init takes; `server add` takes the same ones and `--from`. */
const INIT_FLAGS = {
  home: { type: "string" },
  name: { type: "string", multiple: true },
  address: { type: "string", multiple: true },
  port: { type: "string" },
  "agent-port": { type: "string" },
  "install-root": { type: "string" },
  "agent-data-dir": { type: "string" },
  user: { type: "string" },
} as const;

export function parseInitArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): InitOptions {
  const { values } = parseArgs({ args: argv, strict: true, options: INIT_FLAGS });
  return initOptionsOf(values, env);
}

type InitFlagValues = ReturnType<typeof parseArgs<{ options: typeof INIT_FLAGS }>>["values"];

function initOptionsOf(values: InitFlagValues, env: NodeJS.ProcessEnv): InitOptions {
  const releaseDir = env.LLMGW_RELEASE_DIR;
  return {
    env,
    homeDir: resolve(values.home ?? env.LLMGW_HOME ?? ".llmgw"),
    names: values.name ?? [],
    addresses: values.address ?? [],
    port: values.port ?? env.LLMGW_PORT ?? "8080",
    agentPort: values["agent-port"] ?? env.LLMGW_AGENT_PORT ?? "8081",
    installRoot: resolve(
      values["install-root"] ?? (releaseDir ? dirname(releaseDir) : "/opt/llmgw"),
    ),
    agentDataDir: resolve(values["agent-data-dir"] ?? "/var/lib/llmgw-agent"),
    user: values.user ?? "llmgw",
  };
}

export const ADD_USAGE = `usage: llmgw server add --home DIR --from FIRST_HOME [--name NAME]… [--address IP]…
                        [--port N] [--agent-port N] [--install-root DIR]
                        [--agent-data-dir DIR] [--user NAME]

  --home DIR            the new control plane's home (must not hold a home yet)
  --from FIRST_HOME     the first control plane's home (made by \`llmgw server init\`): its cluster
                        CA, master key and PostgreSQL store are shared with the new one
  (the other flags as for \`llmgw server init\`: this machine's names, addresses, ports, units)
`;

export interface AddOptions extends InitOptions {
  /** The first control plane's home, or an address (refused: remote add is not built). */
  from: string;
}

export function parseAddArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): AddOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { ...INIT_FLAGS, from: { type: "string" } },
  });
  if (values.from === undefined) throw new Error("--from FIRST_HOME is missing");
  if (values.home === undefined) throw new Error("--home DIR is missing (the new home)");
  const { from, ...initFlags } = values;
  return { ...initOptionsOf(initFlags, env), from };
}

export const MIGRATE_STORE_USAGE = `usage: llmgw server migrate-store --home DIR [--to postgres://…]

  --home DIR   the control plane's home whose PGlite store moves (default: LLMGW_HOME)
  --to URL     the PostgreSQL database to move it into, empty; without --to, DATABASE_URL from
               the environment (which keeps a password out of the process list)

  Stop the server first. Afterwards server.env names the database and the PGlite directory is
  renamed to <dir>.moved-to-postgres (kept; remove it once the server runs on PostgreSQL).
`;

export interface MigrateOptions {
  homeDir: string;
  targetUrl: string;
  env: NodeJS.ProcessEnv;
}

export function parseMigrateArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): MigrateOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { home: { type: "string" }, to: { type: "string" } },
  });
  const targetUrl = values.to ?? env.DATABASE_URL;
  if (targetUrl === undefined)
    throw new Error("--to postgres://… is missing (or set DATABASE_URL in the environment)");
  if (!/^postgres(ql)?:\/\//.test(targetUrl))
    throw new Error("--to must be a postgres:// or postgresql:// URL");
  return { homeDir: resolve(values.home ?? env.LLMGW_HOME ?? ".llmgw"), targetUrl, env };
}
