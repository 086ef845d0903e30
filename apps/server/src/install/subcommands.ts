// `llmgw server <subcommand>`: the commands that make or change a home rather than run a server.
// Each is loaded only when asked for, so a plain `llmgw server` start reads none of them.
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

const SUBCOMMANDS: Record<string, () => Promise<(argv: string[]) => Promise<number>>> = {
  init: async () => (await import("./init")).runInit,
  add: async () => (await import("./add")).runAdd,
  "migrate-store": async () => (await import("./migrate-store")).runMigrateStore,
};

/** Runs the subcommand argv names and returns its exit status, or null when it names none. */
export async function runServerSubcommand(argv: string[]): Promise<number | null> {
  const [first, ...rest] = argv;
  if (first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(SERVER_USAGE);
    return 0;
  }
  const load = first === undefined ? undefined : SUBCOMMANDS[first];
  if (!load) return null;
  const run = await load();
  return run(rest);
}

/** An unknown or malformed flag, as node:util parseArgs reports it. */
export function isFlagError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS");
}
