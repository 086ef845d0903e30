// `llmgw ctl`: the command-line face of the tRPC API.
import { parseArgs } from "node:util";
import { ctlEnv, type CtlEnv } from "../config";
import { createApiClient, CtlError, explain } from "./client";
import { readCredentials, removeCredentials, resolveTarget, writeCredentials } from "./credentials";
import { nodesTable } from "./nodes";
import { readPassword } from "./prompt";

const USAGE = `usage: llmgw ctl <command> [options]

commands:
  login [--server URL] [--user NAME] [--password-stdin]   sign in and keep the session (mode 0600)
  logout                                                  end the session and forget it
  whoami                                                  who the saved session belongs to
  nodes [--json]                                          list nodes with their GPUs and state

The server comes from --server, LLMGW_SERVER, or the last login (default http://127.0.0.1:8080);
LLMGW_TOKEN overrides the saved session token.
`;

const NO_NODES = `no node has registered yet; on each node run:
  LLMGW_JOIN_TOKEN=<the server's join token> llmgw agent --server ws://<server>:8081
`;

const OPTIONS = {
  server: { type: "string" },
  user: { type: "string" },
  "password-stdin": { type: "boolean" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function runCtl(argv: string[]): Promise<number> {
  const env = ctlEnv();
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`llmgw ctl: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command] = positionals;
  if (!command || values.help) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 2;
  }
  const target = resolveTarget(env, values.server);
  try {
    return await dispatch(command, env, target, values);
  } catch (error) {
    process.stderr.write(`llmgw ctl ${command}: ${explain(error, target.server)}\n`);
    return 1;
  }
}

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

async function dispatch(command: string, env: CtlEnv, target: { server: string; token: string | null }, values: Values) {
  const api = createApiClient(target.server, target.token);
  switch (command) {
    case "login":
      return login(env, target.server, values);
    case "logout":
      if (target.token) await api.auth.logout.mutate();
      removeCredentials(env);
      process.stdout.write("signed out\n");
      return 0;
    case "whoami": {
      const me = await api.auth.me.query();
      process.stdout.write(values.json ? `${JSON.stringify(me)}\n` : `${me.username} (${me.role}) on ${target.server}\n`);
      return 0;
    }
    case "nodes": {
      const nodes = await api.nodes.list.query();
      if (values.json) process.stdout.write(`${JSON.stringify(nodes, null, 2)}\n`);
      else if (nodes.length === 0) process.stdout.write(NO_NODES);
      else process.stdout.write(nodesTable(nodes, Date.now()));
      return 0;
    }
    default:
      throw new CtlError(`unknown command "${command}"; see \`llmgw ctl --help\``);
  }
}

async function login(env: CtlEnv, server: string, values: Values): Promise<number> {
  const username = values.user ?? readCredentials(env)?.username ?? "admin";
  const password = await readPassword(values["password-stdin"] === true, `password for ${username}@${server}: `);
  const result = await createApiClient(server, null).auth.login.mutate({ username, password });
  const path = writeCredentials(env, { server, token: result.token, username: result.user.username });
  process.stdout.write(`signed in to ${server} as ${result.user.username} (${result.user.role}); session saved in ${path}\n`);
  return 0;
}
