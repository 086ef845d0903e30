// Local accounts and sessions. Tokens are random; only their SHA-256 is stored.
import { randomUUID } from "node:crypto";
import { and, auditLog, eq, gt, sessions, users, type Database } from "@llmgw/db";
import type { AuthService, LoginOutput, UserView } from "@llmgw/api";
import { randomToken, sha256Hex } from "../secrets";
import { hashPassword, verifyPassword } from "./passwords";

// Spent on unknown usernames too, so timing does not tell which names exist.
const DUMMY_HASH_PROMISE = hashPassword(randomToken());

export function createAuthService(
  db: Database,
  sessionTtlMs: number,
  nowMs: () => number,
): AuthService {
  return {
    async login(username, password): Promise<LoginOutput | null> {
      const [user] = await db.select().from(users).where(eq(users.username, username)).limit(1);
      const ok = await verifyPassword(password, user?.passwordHash ?? (await DUMMY_HASH_PROMISE));
      if (!user || !ok) return null;
      const token = randomToken(32);
      const expiresAt = new Date(nowMs() + sessionTtlMs);
      await db.insert(sessions).values({ tokenHash: sha256Hex(token), userId: user.id, expiresAt });
      return { token, expiresAt: expiresAt.toISOString(), user: toView(user) };
    },
    async logout(token) {
      await db.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(token)));
    },
  };
}

export async function userForSession(
  db: Database,
  token: string,
  now: Date,
): Promise<UserView | null> {
  const rows = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256Hex(token)), gt(sessions.expiresAt, now)))
    .limit(1);
  return rows[0] ? toView(rows[0].user) : null;
}

function toView(user: typeof users.$inferSelect): UserView {
  return { id: user.id, username: user.username, role: user.role };
}

/**
 * Makes the first admin when the store has no users. The password is returned once so `npm
 * start` can print it; only its hash is kept.
 */
export async function ensureFirstAdmin(
  db: Database,
  presetPassword: string | null,
): Promise<{ username: string; password: string } | null> {
  const existing = await db.select({ id: users.id }).from(users).limit(1);
  if (existing.length > 0) return null;
  const password = presetPassword ?? randomToken(12);
  await db.insert(users).values({
    id: randomUUID(),
    username: "admin",
    passwordHash: await hashPassword(password),
    role: "admin",
  });
  await db.insert(auditLog).values({
    actor: "system",
    action: "user.create",
    target: "admin",
    details: { role: "admin" },
  });
  return { username: "admin", password };
}
