// `llmgw server <subcommand>`: the commands that make or change a home rather than run a server.
// Each one's code is loaded only when asked for; a plain `llmgw server` start reads none of it.
import { ADD_USAGE, INIT_USAGE, MIGRATE_STORE_USAGE } from "./config";

export const SERVER_USAGE = `usage: llmgw server [--home DIR] [--port N] [--agent-port N]
       llmgw server init [--home DIR] …            make a control plane's home (--help)
       llmgw server add --home DIR --from FIRST_HOME …
                                                    make a further control plane's home from the
                                                    first's (shared CA, master key, PostgreSQL)
       llmgw server migrate-store --home DIR [--to postgres://…]
                                                    move a home's PGlite store to PostgreSQL

  llmgw server runs the control plane of the home (default: LLMGW_HOME, else ./.llmgw), with the
  settings of <home>/server.env; every setting: docs/install.md.
`;

interface Subcommand {
  usage: string;
  load(): Promise<(argv: string[]) => Promise<number>>;
}

const SUBCOMMANDS: Record<string, Subcommand> = {
  init: { usage: INIT_USAGE, load: async () => (await import("./init")).runInit },
  add: { usage: ADD_USAGE, load: async () => (await import("./add")).runAdd },
  "migrate-store": {
    usage: MIGRATE_STORE_USAGE,
    load: async () => (await import("./migrate-store")).runMigrateStore,
  },
};

const isHelp = (arg: string | undefined) => arg === "--help" || arg === "-h" || arg === "help";

/** Runs the subcommand argv names and returns its exit status, or null when it names none. */
export async function runServerSubcommand(argv: string[]): Promise<number | null> {
  const [first, ...rest] = argv;
  if (isHelp(first)) {
    process.stdout.write(SERVER_USAGE);
    return 0;
  }
  const subcommand = first === undefined ? undefined : SUBCOMMANDS[first];
  if (!subcommand) return null;
  if (rest.some(isHelp)) {
    process.stdout.write(subcommand.usage);
    return 0;
  }
  const run = await subcommand.load();
  return run(rest);
}

/** An unknown or malformed flag, as node:util parseArgs reports it. */
export function isFlagError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS");
}
