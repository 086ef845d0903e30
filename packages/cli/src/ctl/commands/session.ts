// Signing in and out, and the fleet's nodes.
import { required, UsageError } from "../args";
import { createApiClient, signInWithPassword } from "../client";
import { readCredentials, removeCredentials, writeCredentials } from "../credentials";
import { readPassword } from "../prompt";
import { nodesInDomain, nodesTable } from "../views/nodes-view";
import { printJson, type Command } from "./command";

const NO_NODES = `no node has registered yet; make a join token (llmgw ctl join-tokens create) and on each node run
  the join command it prints, then llmgw agent
`;

export const sessionCommands: Record<string, Command> = {
  login: {
    usage: "login [--server URL] [--user NAME] [--password-stdin] | --token-stdin [--server URL]",
    summary: "sign in (password, or a token made in the console) and keep it (mode 0600)",
    flags: ["user", "password-stdin", "token-stdin"],
    async run({ env, target, values, write }) {
      if (values["token-stdin"]) {
        // Piped in by a script, or pasted at a hidden prompt on a terminal.
        const token = await readPassword(false, `token for ${target.server}: `, "token");
        const me = await createApiClient(target.server, token).auth.me.query();
        const path = writeCredentials(env, { server: target.server, token, username: me.username });
        write(
          `signed in to ${target.server} as ${me.username} (${me.role}) with a token; saved in ${path}\n`,
        );
        return 0;
      }
      const username = values.user ?? readCredentials(env)?.username ?? "admin";
      const password = await readPassword(
        values["password-stdin"] === true,
        `password for ${username}@${target.server}: `,
      );
      const result = await signInWithPassword(target.server, username, password);
      const path = writeCredentials(env, {
        server: target.server,
        token: result.token,
        username: result.user.username,
      });
      write(
        `signed in to ${target.server} as ${result.user.username} (${result.user.role}); session saved in ${path}\n`,
      );
      return 0;
    },
  },
  logout: {
    usage: "logout",
    summary: "end the session and forget it",
    flags: [],
    async run({ api, env, target, write }) {
      if (target.token) await api.auth.logout.mutate();
      removeCredentials(env);
      write("signed out\n");
      return 0;
    },
  },
  "logout-everywhere": {
    usage: "logout-everywhere",
    summary: "end every session and token of yours, on every machine",
    flags: [],
    async run({ api, env, write }) {
      const { ended } = await api.auth.logoutEverywhere.mutate();
      removeCredentials(env);
      write(`signed out everywhere (${ended} session(s) ended)\n`);
      return 0;
    },
  },
  whoami: {
    usage: "whoami [--json]",
    summary: "who the saved session belongs to",
    flags: ["json"],
    async run(ctx) {
      const me = await ctx.api.auth.me.query();
      if (ctx.values.json) ctx.write(`${JSON.stringify(me)}\n`);
      else ctx.write(`${me.username} (${me.role}) on ${ctx.target.server}\n`);
      return 0;
    },
  },
  nodes: {
    usage: "nodes [--domain KIND=VALUE] [--json] | remove NODE",
    summary: "list nodes with their GPUs and state; remove a node (its certificate is revoked)",
    flags: ["json", "domain"],
    takesArguments: true,
    async run(ctx) {
      const [verb, ...rest] = ctx.args;
      if (verb === "remove") {
        const removed = await ctx.api.nodes.remove.mutate({
          id: required(rest, 0, "NODE", "nodes remove NODE"),
        });
        ctx.write(
          `node ${removed.id} is removed: ${removed.certificatesRevoked} certificate(s) revoked, its session closed; it must join again with a new token\n`,
        );
        return 0;
      }
      if (verb !== undefined)
        throw new UsageError(
          `unknown nodes command "${verb}"; usage: nodes [--json] | remove NODE`,
        );
      const all = await ctx.api.nodes.list.query();
      const nodes = ctx.values.domain === undefined ? all : nodesInDomain(all, ctx.values.domain);
      if (ctx.values.json) printJson(ctx, nodes);
      else if (nodes.length > 0) ctx.write(nodesTable(nodes, ctx.nowMs()));
      else ctx.write(all.length === 0 ? NO_NODES : `no node is in ${ctx.values.domain ?? "-"}\n`);
      return 0;
    },
  },
};
