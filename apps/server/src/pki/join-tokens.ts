// Join tokens: the tRPC service (create, list, revoke, join facts) and the check the join route
// makes. A token is `<id>.<secret>`: the id is public (lists and revocation name it), only the
// SHA-256 of the secret is stored, and a join spends one use in one conditional UPDATE so two
// nodes racing for the last use cannot both win.
import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, joinTokens, lt, or, sql, type Database } from "@llmgw/db";
import type { JoinTokenRow } from "@llmgw/db";
import {
  ServiceError,
  type JoinInfo,
  type JoinTokensService,
  type JoinTokenView,
} from "@llmgw/api";
import { constantTimeEqual, randomToken, sha256Hex } from "@llmgw/secrets";
import { recordAudit } from "../identity/audit";

/** Why a token was refused: told to the server log, never to the one presenting it. */
type TokenRefusal = "malformed" | "unknown" | "expired" | "revoked" | "used-up";

type TokenCheck = { ok: true; id: string } | { ok: false; why: TokenRefusal };

export interface JoinTokens extends JoinTokensService {
  /** Checks a presented token without spending it. */
  check(presented: string): Promise<TokenCheck>;
  /** Spends one use; refuses when another join took the last one meanwhile. */
  spend(id: string): Promise<TokenCheck>;
}

const TOKEN_PATTERN = /^([a-z0-9]{6})\.([A-Za-z0-9_-]{16,64})$/;

export function createJoinTokens(
  db: Database,
  nowMs: () => number,
  joinInfo: () => JoinInfo,
): JoinTokens {
  const find = async (id: string) =>
    (await db.select().from(joinTokens).where(eq(joinTokens.id, id)))[0];
  return {
    async create(input, actor) {
      const id = randomBytes(6).toString("hex").slice(0, 6);
      const secret = randomToken(24);
      const [row] = await db
        .insert(joinTokens)
        .values({
          id,
          secretHash: sha256Hex(secret),
          description: input.description ?? "",
          createdBy: actor.username,
          createdAt: new Date(nowMs()),
          expiresAt: new Date(nowMs() + input.ttlSeconds * 1000),
          usesMax: input.uses ?? null,
        })
        .returning();
      if (!row) throw new Error("the join token was not stored");
      await recordAudit(db, {
        actor: actor.username,
        action: "join-token.create",
        target: id,
        details: { ttlSeconds: input.ttlSeconds, uses: input.uses ?? null },
      });
      return { token: `${id}.${secret}`, view: tokenView(row, nowMs()) };
    },
    async list() {
      const rows = await db.select().from(joinTokens).orderBy(desc(joinTokens.createdAt));
      return rows.map((row) => tokenView(row, nowMs()));
    },
    async revoke(id, actor) {
      const [row] = await db
        .update(joinTokens)
        .set({ revokedAt: sql`coalesce(${joinTokens.revokedAt}, ${new Date(nowMs())})` })
        .where(eq(joinTokens.id, id))
        .returning();
      if (!row)
        throw new ServiceError(
          "not_found",
          `no join token with id "${id}"; see \`llmgw ctl join-tokens list\``,
          { code: "join_token.not_found", params: { id } },
        );
      await recordAudit(db, { actor: actor.username, action: "join-token.revoke", target: id });
      return tokenView(row, nowMs());
    },
    joinInfo: () => Promise.resolve(joinInfo()),
    async check(presented) {
      const match = TOKEN_PATTERN.exec(presented);
      if (!match?.[1] || !match[2]) return { ok: false, why: "malformed" };
      const row = await find(match[1]);
      if (!row || !constantTimeEqual(sha256Hex(match[2]), row.secretHash))
        return { ok: false, why: "unknown" };
      const state = tokenState(row, nowMs());
      return state === "active" ? { ok: true, id: row.id } : { ok: false, why: state };
    },
    async spend(id) {
      const now = new Date(nowMs());
      const [row] = await db
        .update(joinTokens)
        .set({ uses: sql`${joinTokens.uses} + 1` })
        .where(
          and(
            eq(joinTokens.id, id),
            isNull(joinTokens.revokedAt),
            gt(joinTokens.expiresAt, now),
            or(isNull(joinTokens.usesMax), lt(joinTokens.uses, joinTokens.usesMax)),
          ),
        )
        .returning();
      return row ? { ok: true, id } : { ok: false, why: "used-up" };
    },
  };
}

function tokenState(row: JoinTokenRow, nowMs: number): JoinTokenView["state"] {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt.getTime() <= nowMs) return "expired";
  if (row.usesMax !== null && row.uses >= row.usesMax) return "used-up";
  return "active";
}

function tokenView(row: JoinTokenRow, nowMs: number): JoinTokenView {
  return {
    id: row.id,
    description: row.description,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    uses: row.uses,
    usesMax: row.usesMax,
    state: tokenState(row, nowMs),
  };
}
