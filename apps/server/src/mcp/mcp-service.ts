// The McpService behind the `mcp` tRPC router: servers (credentials sealed on the way in, never
// answered), tests against the upstream, and grants. Every change is audited by header name.
import { auditLog, eq, mcpGrants, mcpServers, type Database, type McpServerRow } from "@llmgw/db";
import { ServiceError, type Actor, type McpService, type McpTestResult } from "@llmgw/api";
import { ADMIN_MCP_SERVER, type OwnershipResolver } from "@llmgw/domain";
import { ADMIN_TOOLS } from "./admin-tools";
import { grantTools, listGrants, openLevel, revokeTools, type GrantsDeps } from "./grants-store";
import type { McpRuntime } from "./runtime";
import {
  headerNames,
  mergeServer,
  newServerRow,
  openHeaders,
  sealedHeader,
  serverView,
  type SealingDeps,
} from "./server-rows";
import { listUpstreamTools, upstreamReason } from "./upstream";
import { must } from "@llmgw/domain";

export interface McpServiceDeps extends SealingDeps {
  db: Database;
  runtime: McpRuntime;
  ownership: OwnershipResolver;
  defaultTimeoutMs: number;
}

export function upstreamTarget(deps: McpServiceDeps, row: McpServerRow) {
  return {
    url: row.url,
    headers: openHeaders(deps, row),
    timeoutMs: row.timeoutMs ?? deps.defaultTimeoutMs,
    isPrivateAllowed: deps.isPrivateAllowed,
  };
}

export function createMcpService(deps: McpServiceDeps): McpService {
  const { db, runtime } = deps;
  const now = () => new Date(runtime.nowMs());
  const find = async (name: string) => {
    const [row] = await db.select().from(mcpServers).where(eq(mcpServers.name, name));
    if (!row)
      throw new ServiceError("not_found", `no MCP server named "${name}"; see llmgw ctl mcp list`, {
        code: "mcp.server_not_found",
        params: { name },
      });
    return row;
  };
  const view = async (row: McpServerRow) =>
    serverView(
      row,
      await db.select().from(mcpGrants).where(eq(mcpGrants.server, row.name)),
      runtime,
    );
  const audit = (actor: Actor, action: string, row: McpServerRow, extra = {}) =>
    db.insert(auditLog).values({
      at: now(),
      actor: actor.username,
      action,
      target: row.name,
      details: { url: row.url, headers: headerNames(row), ...extra },
    });
  const save = async (row: McpServerRow, actor: Actor, action: string) => {
    const [updated] = await db
      .update(mcpServers)
      .set(row)
      .where(eq(mcpServers.name, row.name))
      .returning();
    runtime.forget(row.name);
    const saved = must(updated, `the updated MCP server ${row.name}`);
    await audit(actor, action, saved);
    return view(saved);
  };
  const grantsDeps: GrantsDeps = {
    db,
    ownership: deps.ownership,
    nowMs: runtime.nowMs,
    requireServer: find,
    onChange: (server) => runtime.forget(server),
  };

  return {
    async listServers() {
      const [rows, grants] = await Promise.all([
        db.select().from(mcpServers).orderBy(mcpServers.name),
        db.select().from(mcpGrants),
      ]);
      return rows.map((row) => serverView(row, grants, runtime));
    },
    async addServer(input, actor) {
      const row = newServerRow(deps, input, actor.username, now());
      const [saved] = await db.insert(mcpServers).values(row).onConflictDoNothing().returning();
      if (!saved)
        throw new ServiceError(
          "conflict",
          `an MCP server named "${row.name}" exists; change it with update, or remove it first`,
          { code: "mcp.server_exists", params: { name: row.name } },
        );
      await audit(actor, "mcp.server.add", saved);
      return view(saved);
    },
    async updateServer(input, actor) {
      return save(
        mergeServer(deps, await find(input.name), input, now()),
        actor,
        "mcp.server.update",
      );
    },
    async removeServer(name, actor) {
      const row = await find(name);
      await db.delete(mcpServers).where(eq(mcpServers.name, name));
      runtime.forget(name);
      await audit(actor, "mcp.server.remove", row);
      return { name };
    },
    async setEnabled(name, isEnabled, actor) {
      const row = await find(name);
      return save(
        { ...row, isEnabled, updatedAt: now() },
        actor,
        isEnabled ? "mcp.server.enable" : "mcp.server.disable",
      );
    },
    async replaceCredential(name, credential, actor) {
      const row = await find(name);
      if (name === ADMIN_MCP_SERVER)
        throw new ServiceError(
          "invalid",
          `${ADMIN_MCP_SERVER} is answered inside the gateway and keeps no token`,
          { code: "mcp.admin_keeps_no_token", params: { server: ADMIN_MCP_SERVER } },
        );
      const sealed = sealedHeader(deps, name, credential);
      const headers = [
        ...row.headers.filter(
          (h) => !h.isSealed && h.name.toLowerCase() !== sealed.name.toLowerCase(),
        ),
        sealed,
      ];
      return save({ ...row, headers, updatedAt: now() }, actor, "mcp.server.credential");
    },
    async testServer(name) {
      return testServer(deps, await find(name));
    },
    listGrants: (filter) => listGrants(db, filter),
    grant: (input, actor) => grantTools(grantsDeps, input, actor),
    revoke: (input, actor) => revokeTools(grantsDeps, input, actor),
    open: (subject, server, actor) => openLevel(grantsDeps, subject, server, actor),
  };
}

async function testServer(deps: McpServiceDeps, row: McpServerRow): Promise<McpTestResult> {
  const startedMs = deps.runtime.nowMs();
  const elapsed = () => deps.runtime.nowMs() - startedMs;
  if (row.name === ADMIN_MCP_SERVER)
    return {
      ok: true,
      tools: ADMIN_TOOLS.map((t) => ({ name: t.name, description: t.description })),
      error: null,
      elapsedMs: elapsed(),
    };
  const target = upstreamTarget(deps, row);
  try {
    const tools = await listUpstreamTools(target);
    return {
      ok: true,
      tools: tools.map((t) => ({ name: t.name, description: t.description ?? null })),
      error: null,
      elapsedMs: elapsed(),
    };
  } catch (error) {
    return { ok: false, tools: [], error: upstreamReason(error, target), elapsedMs: elapsed() };
  }
}
