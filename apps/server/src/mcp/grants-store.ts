// Grants in the store: the pure rules in @llmgw/domain decide, this writes what they say and
// audits it.
import { and, auditLog, eq, mcpGrants, type Database, type McpGrantRow } from "@llmgw/db";
import {
  ServiceError,
  type Actor,
  type McpGrantInput,
  type McpGrantView,
  type McpRevokeInput,
} from "@llmgw/api";
import { effectiveGrant, listAfterGrant, planRevoke, type PlacedGrantRow } from "@llmgw/domain";
import { levelsAbove, requireSubject, type LevelDeps } from "./levels";
import { grantView } from "./server-rows";

export interface GrantsDeps extends LevelDeps {
  nowMs(): number;
  requireServer(name: string): Promise<unknown>;
  /** A grant changed: the gateway forgets cached lists for the server. */
  onChange(server: string): void;
}

async function rowsOf(db: Database, server: string): Promise<McpGrantRow[]> {
  return db.select().from(mcpGrants).where(eq(mcpGrants.server, server));
}

export async function listGrants(
  db: Database,
  filter: { server?: string; subject?: string },
): Promise<McpGrantView[]> {
  const rows = await db.select().from(mcpGrants);
  return rows
    .filter((r) => (filter.server ? r.server === filter.server : true))
    .filter((r) => (filter.subject ? r.subject === filter.subject : true))
    .sort((a, b) => a.server.localeCompare(b.server) || a.subject.localeCompare(b.subject))
    .map(grantView);
}

export async function grantTools(
  deps: GrantsDeps,
  input: McpGrantInput,
  actor: Actor,
): Promise<McpGrantView[]> {
  await deps.requireServer(input.server);
  await requireSubject(deps.db, input.subject);
  const rows = await rowsOf(deps.db, input.server);
  const lists = new Map(rows.map((r) => [r.subject, r.tools]));
  const above = await levelsAbove(deps, input.subject);
  const tools = listAfterGrant(
    lists.get(input.subject),
    effectiveGrant(above, lists).tools,
    input.tools,
  );
  const now = new Date(deps.nowMs());
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(mcpGrants)
      .values({ ...input, tools, grantedBy: actor.username, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [mcpGrants.subject, mcpGrants.server],
        set: { tools, grantedBy: actor.username, updatedAt: now },
      });
    await tx.insert(auditLog).values({
      at: now,
      actor: actor.username,
      action: "mcp.grant",
      target: `${input.server} → ${input.subject}`,
      details: { granted: input.tools, tools },
    });
  });
  deps.onChange(input.server);
  return listGrants(deps.db, { server: input.server });
}

export async function revokeTools(
  deps: GrantsDeps,
  input: McpRevokeInput,
  actor: Actor,
): Promise<McpGrantView[]> {
  await deps.requireServer(input.server);
  const rows = await rowsOf(deps.db, input.server);
  const placed: PlacedGrantRow[] = await Promise.all(
    rows.map(async (row) => ({ ...row, above: await levelsAbove(deps, row.subject) })),
  );
  const changes = planRevoke({
    subject: input.subject,
    above: await levelsAbove(deps, input.subject),
    patterns: input.tools ?? null,
    rows: placed,
  });
  const now = new Date(deps.nowMs());
  await deps.db.transaction(async (tx) => {
    for (const change of changes) {
      const where = and(eq(mcpGrants.subject, change.subject), eq(mcpGrants.server, input.server));
      if (change.kind === "delete") await tx.delete(mcpGrants).where(where);
      else
        await tx
          .insert(mcpGrants)
          .values({
            subject: change.subject,
            server: input.server,
            tools: change.tools,
            grantedBy: actor.username,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoUpdate({
            target: [mcpGrants.subject, mcpGrants.server],
            set: { tools: change.tools, grantedBy: actor.username, updatedAt: now },
          });
    }
    await tx.insert(auditLog).values({
      at: now,
      actor: actor.username,
      action: "mcp.revoke",
      target: `${input.server} → ${input.subject}`,
      details: { revoked: input.tools ?? "all", changed: changes.map((c) => c.subject) },
    });
  });
  deps.onChange(input.server);
  return listGrants(deps.db, { server: input.server });
}

export async function openLevel(
  deps: GrantsDeps,
  subject: string,
  server: string,
  actor: Actor,
): Promise<McpGrantView[]> {
  await deps.requireServer(server);
  const now = new Date(deps.nowMs());
  const gone = await deps.db
    .delete(mcpGrants)
    .where(and(eq(mcpGrants.subject, subject), eq(mcpGrants.server, server)))
    .returning();
  const [removed] = gone;
  if (!removed)
    throw new ServiceError(
      "not_found",
      `${subject} names no list of its own for ${server}; it already inherits`,
      { code: "mcp.no_own_list", params: { subject, server } },
    );
  await deps.db.insert(auditLog).values({
    at: now,
    actor: actor.username,
    action: "mcp.open",
    target: `${server} → ${subject}`,
    details: { was: removed.tools },
  });
  deps.onChange(server);
  return listGrants(deps.db, { server });
}
