// MCP servers and tool grants: add (a credential read from a file, sealed by the server), list,
// test, turn off and on, remove, grant, revoke and open a closed level. Credentials are never
// taken on the command line, where the shell's history and `ps` would keep them.
import type { McpCredential, McpServerView } from "@llmgw/api";
import { parseCountFlag, parseDurationSeconds, required, UsageError } from "../args";
import { readSecretFile } from "../secret-file";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

const MCP_USAGE =
  "mcp add NAME --url URL [--bearer-file F | --secret-file F [--secret-header X-Api-Key]] [--header 'Name: value'] [--rate N] [--timeout 30s] [--description TEXT] | list [--json] | test NAME | enable NAME | disable NAME | remove NAME | grant NAME --to team:ml --tools 'echo,get-*' | revoke NAME --to team:ml [--tools echo] | open NAME --to team:ml";

function credentialFrom(ctx: CommandContext): McpCredential | undefined {
  const bearerFile = ctx.values["bearer-file"];
  const secretFile = ctx.values["secret-file"];
  if (bearerFile && secretFile)
    throw new UsageError("give --bearer-file or --secret-file, not both: one credential a server");
  if (bearerFile) return { bearer: readSecretFile("bearer-file", bearerFile) };
  if (secretFile)
    return {
      secretHeader: {
        name: ctx.values["secret-header"] ?? "X-Api-Key",
        value: readSecretFile("secret-file", secretFile),
      },
    };
  return undefined;
}

function headersFrom(values: readonly string[] | undefined) {
  return (values ?? []).map((text) => {
    const colon = text.indexOf(":");
    if (colon <= 0) throw new UsageError(`--header takes "Name: value", not "${text}"`);
    return { name: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
  });
}

const listFlag = (flag: string, value: string | undefined) => {
  const list = (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  if (value !== undefined && list.length === 0) throw new UsageError(`--${flag} names nothing`);
  return value === undefined ? undefined : list;
};

function mcpServersTable(servers: readonly McpServerView[]): string {
  const rows = servers.map((s) => [
    s.name,
    s.state,
    s.url,
    s.callsPerMinute === null ? "-" : `${s.callsPerMinute}/min`,
    s.headers.map((h) => (h.isSealed ? `${h.name} (sealed)` : h.name)).join(", ") || "-",
    s.grants
      .map((g) => `${g.subject}=${g.tools.length === 0 ? "[] closed" : g.tools.join(",")}`)
      .join(" ") || "-",
  ]);
  return renderTable(["NAME", "STATE", "ADDRESS", "RATE", "HEADERS", "GRANTS"], rows);
}

async function addServer(ctx: CommandContext, name: string): Promise<number> {
  const { url, description, timeout, rate } = ctx.values;
  const view = await ctx.api.mcp.servers.add.mutate({
    name,
    url,
    description,
    timeoutMs: timeout === undefined ? undefined : parseDurationSeconds("timeout", timeout) * 1_000,
    callsPerMinute: parseCountFlag("rate", rate),
    headers: headersFrom(ctx.values.header),
    credential: credentialFrom(ctx),
  });
  if (ctx.values.json) printJson(ctx, view);
  else
    ctx.write(
      `MCP server ${view.name} added (${view.url}); grant its tools with \`llmgw ctl mcp grant ${view.name} --to team:NAME --tools '*'\`\n`,
    );
  return 0;
}

async function testServer(ctx: CommandContext, name: string): Promise<number> {
  const result = await ctx.api.mcp.servers.test.mutate({ name });
  if (ctx.values.json) printJson(ctx, result);
  else if (!result.ok) ctx.writeError(`${name}: ${result.error ?? "failed"}\n`);
  else
    ctx.write(
      `${name} answered in ${result.elapsedMs} ms with ${result.tools.length} tools\n` +
        renderTable(
          ["TOOL", "DESCRIPTION"],
          result.tools.map((t) => [t.name, t.description ?? ""]),
        ),
    );
  return result.ok ? 0 : 1;
}

async function grants(ctx: CommandContext, verb: "grant" | "revoke" | "open", server: string) {
  const subject = ctx.values.to;
  if (!subject)
    throw new UsageError(
      `--to is missing (org:, team:, project:, user: or key:ID); usage: ${MCP_USAGE}`,
    );
  const tools = listFlag("tools", ctx.values.tools);
  let after;
  if (verb === "grant") {
    if (!tools) throw new UsageError(`--tools is missing ('*' for all); usage: ${MCP_USAGE}`);
    after = await ctx.api.mcp.grants.grant.mutate({ subject, server, tools });
  } else if (verb === "revoke")
    after = await ctx.api.mcp.grants.revoke.mutate({ subject, server, tools });
  else after = await ctx.api.mcp.grants.open.mutate({ subject, server });
  if (ctx.values.json) printJson(ctx, after);
  else
    ctx.write(
      after.length === 0
        ? `${server}: no level holds any of its tools now\n`
        : renderTable(
            ["SUBJECT", "TOOLS"],
            after.map((g) => [g.subject, g.isClosed ? "[] (closed)" : g.tools.join(",")]),
          ),
    );
  return 0;
}

async function mcpCommand(ctx: CommandContext): Promise<number> {
  const [verb, ...rest] = ctx.args;
  const name = () => required(rest, 0, "NAME", `mcp ${verb ?? ""} NAME`);
  switch (verb) {
    case "list":
    case undefined: {
      const servers = await ctx.api.mcp.servers.list.query();
      if (ctx.values.json) printJson(ctx, servers);
      else
        ctx.write(
          servers.length === 0
            ? "no MCP servers yet; add one with `llmgw ctl mcp add`\n"
            : mcpServersTable(servers),
        );
      return 0;
    }
    case "add":
      return addServer(ctx, name());
    case "test":
      return testServer(ctx, name());
    case "remove":
      await ctx.api.mcp.servers.remove.mutate({ name: name() });
      ctx.write(`MCP server ${rest[0]} removed, with its grants\n`);
      return 0;
    case "enable":
    case "disable": {
      const view = await ctx.api.mcp.servers[verb].mutate({ name: name() });
      ctx.write(`MCP server ${view.name} is ${view.state}\n`);
      return 0;
    }
    case "grant":
    case "revoke":
    case "open":
      return grants(ctx, verb, name());
    default:
      throw new UsageError(`unknown mcp command "${verb}"; usage: ${MCP_USAGE}`);
  }
}

export const mcpCommands: Record<string, Command> = {
  mcp: {
    usage: MCP_USAGE,
    summary: "MCP servers behind /mcp and who may use their tools",
    flags: [
      "url",
      "bearer-file",
      "secret-file",
      "secret-header",
      "header",
      "rate",
      "timeout",
      "description",
      "json",
      "to",
      "tools",
    ],
    takesArguments: true,
    run: mcpCommand,
  },
};
