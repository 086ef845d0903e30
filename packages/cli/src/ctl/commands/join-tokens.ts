// Join tokens for new nodes: create (the token is printed once, with the join command when the
// server can say where its agent port is), list, revoke.
import type { JoinTokenView } from "@llmgw/api";
import { parseCountFlag, parseDurationSeconds, required, UsageError } from "../args";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

const JOIN_TOKENS_USAGE =
  "join-tokens create [--ttl 1h] [--uses N] [--description TEXT] [--json] | list [--json] | revoke ID";

async function createToken(ctx: CommandContext): Promise<number> {
  const created = await ctx.api.joinTokens.create.mutate({
    ttlSeconds:
      ctx.values.ttl === undefined ? undefined : parseDurationSeconds("ttl", ctx.values.ttl),
    uses: parseCountFlag("uses", ctx.values.uses),
    description: ctx.values.description,
  });
  const info = await ctx.api.joinTokens.joinInfo.query().catch(() => null);
  const url = info?.agentUrls[0] ?? "wss://HOST:8081";
  const command = `llmgw agent join ${url} --token ${created.token} --ca-sha256 ${info?.caSha256 ?? "H"}`;
  if (ctx.values.json) {
    printJson(ctx, { token: created.token, ...created.view, joinCommand: command, ...info });
    return 0;
  }
  const uses =
    created.view.usesMax === null ? "any number of nodes" : `${created.view.usesMax} node(s)`;
  ctx.write(
    `${created.token}\n\njoin token ${created.view.id} for ${uses} until ${created.view.expiresAt}; this is the only time it is shown\n\n` +
      `on each node (the token is best kept out of ps: put it in a file and use --token-file, or LLMGW_JOIN_TOKEN):\n  ${command}\n` +
      (info && info.agentUrls.length > 1
        ? `other addresses of the agent port: ${info.agentUrls.slice(1).join(", ")}\n`
        : ""),
  );
  return 0;
}

function tokensTable(tokens: readonly JoinTokenView[]): string {
  const rows = tokens.map((t) => [
    t.id,
    t.description || "-",
    t.createdAt,
    t.expiresAt,
    `${t.uses}/${t.usesMax ?? "∞"}`,
    t.state,
  ]);
  return renderTable(["ID", "DESCRIPTION", "CREATED", "EXPIRES", "USES", "STATE"], rows);
}

async function joinTokensCommand(ctx: CommandContext): Promise<number> {
  const [verb, ...rest] = ctx.args;
  switch (verb) {
    case "create":
      return createToken(ctx);
    case "list":
    case undefined: {
      const tokens = await ctx.api.joinTokens.list.query();
      if (ctx.values.json) printJson(ctx, tokens);
      else
        ctx.write(
          tokens.length === 0
            ? "no join tokens yet; make one with `llmgw ctl join-tokens create`\n"
            : tokensTable(tokens),
        );
      return 0;
    }
    case "revoke": {
      const token = await ctx.api.joinTokens.revoke.mutate({
        id: required(rest, 0, "ID", "join-tokens revoke ID"),
      });
      ctx.write(`join token ${token.id} is revoked; nodes can no longer join with it\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown join-tokens command "${verb}"; usage: ${JOIN_TOKENS_USAGE}`);
  }
}

export const joinTokenCommands: Record<string, Command> = {
  "join-tokens": {
    usage: JOIN_TOKENS_USAGE,
    summary: "tokens new nodes join with: create (shown once), list, revoke",
    flags: ["ttl", "uses", "description", "json"],
    takesArguments: true,
    run: joinTokensCommand,
  },
};
