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

export function parseInitArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): InitOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      home: { type: "string" },
      name: { type: "string", multiple: true },
      address: { type: "string", multiple: true },
      port: { type: "string" },
      "agent-port": { type: "string" },
      "install-root": { type: "string" },
      "agent-data-dir": { type: "string" },
      user: { type: "string" },
    },
  });
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
