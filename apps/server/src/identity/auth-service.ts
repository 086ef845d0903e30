// Local accounts, sessions and CLI tokens. Tokens are random; only their SHA-256 is stored, and
// a session is found again only while the person is active and still holds a role.
import { messageOf } from "@llmgw/domain";
import { randomUUID } from "node:crypto";
import { and, eq, gt, sessions, users, type Database, type UserRow } from "@llmgw/db";
import {
  RetryLaterError,
  ServiceError,
  type AuthService,
  type LoginOutput,
  type UserView,
} from "@llmgw/api";
import { randomToken, sha256Hex } from "@llmgw/secrets";
import { recordAudit } from "./audit";
import { principalOf } from "./principal";
import { DEFAULT_THROTTLE_POLICY, SignInThrottle } from "./sign-in-throttle";
import { hashPassword, verifyPassword } from "./passwords";
import { must } from "@llmgw/domain";

// Spent on unknown usernames too, so timing does not tell which names exist.
const DUMMY_HASH_PROMISE = hashPassword(randomToken());
const DAY_MS = 86_400_000;
/** Tokens are listed by this much of their hash: enough to tell them apart, useless to sign in. */
const TOKEN_ID_CHARS = 16;

/** Opens a session for someone already checked (by password, Entra or AD). */
export async function openSession(
  db: Database,
  user: UserRow,
  how: string,
  ttlMs: number,
  nowMs: number,
): Promise<LoginOutput> {
  const principal = await principalOf(db, user);
  if (!principal) throw refusal(user);
  const token = randomToken(32);
  const expiresAt = new Date(nowMs + ttlMs);
  await db
    .insert(sessions)
    .values({ tokenHash: sha256Hex(token), userId: user.id, expiresAt, label: how });
  await db
    .update(users)
    .set({ lastSignInAt: new Date(nowMs) })
    .where(eq(users.id, user.id));
  await recordAudit(db, {
    actor: user.username,
    action: "session.open",
    target: user.username,
    details: { how },
  });
  return { token, expiresAt: expiresAt.toISOString(), user: principal };
}

function retryLater(waitMs: number): RetryLaterError {
  const waitS = Math.ceil(waitMs / 1000);
  return new RetryLaterError(
    `too many failed sign-ins for this name or from this address; wait ${waitS} s and try again (each failure makes the wait longer)`,
    waitS,
    { code: "auth.throttled", params: { seconds: waitS } },
  );
}

function refusal(user: UserRow): ServiceError {
  return new ServiceError(
    "forbidden",
    user.isActive
      ? `"${user.username}" holds no role here; an admin can grant one (llmgw ctl roles grant --user ${user.username} --role viewer)`
      : `"${user.username}" is disabled; an admin can enable the account again`,
    { code: user.isActive ? "auth.no_role" : "auth.disabled", params: { username: user.username } },
  );
}

/** Active Directory sign-in, when it is built in (the server passes its LdapSignIn). */
export interface DirectorySignIn {
  enabled(): Promise<boolean>;
  signIn(username: string, password: string): Promise<UserRow>;
}

export function createAuthService(
  db: Database,
  sessionTtlMs: number,
  nowMs: () => number,
  directory?: DirectorySignIn,
  signInFreeFailures = DEFAULT_THROTTLE_POLICY.freeFailures,
): AuthService {
  const throttle = new SignInThrottle(nowMs, {
    ...DEFAULT_THROTTLE_POLICY,
    freeFailures: signInFreeFailures,
  });
  const checkPassword = async (username: string, password: string) => {
    const [user] = await db.select().from(users).where(eq(users.username, username)).limit(1);
    // Names without a local password go to Active Directory when it is set up.
    if (!user?.passwordHash && directory && (await directory.enabled())) {
      try {
        const person = await directory.signIn(username, password);
        return await openSession(db, person, "ldap", sessionTtlMs, nowMs());
      } catch (error) {
        if ((error as Error).name === "WrongCredentials") return null;
        // Only that: the directory's address and error went to the server log.
        if ((error as Error).name === "SignInUnavailable")
          throw new ServiceError(
            "unavailable",
            "sign-in is unavailable right now; try again in a few minutes, and tell an admin if it lasts",
            { code: "auth.signin_unavailable" },
          );
        if ((error as Error).name === "SignInRefused")
          throw new ServiceError("forbidden", messageOf(error), {
            code: "auth.directory_refused",
            params: { reason: messageOf(error) },
          });
        throw error;
      }
    }
    const ok = await verifyPassword(password, user?.passwordHash ?? (await DUMMY_HASH_PROMISE));
    if (!user || !ok || !user.passwordHash) return null;
    return openSession(db, user, "password", sessionTtlMs, nowMs());
  };
  return {
    async login(username, password, address): Promise<LoginOutput> {
      // Refused before any password is checked: a throttled guess costs no scrypt and no AD bind.
      const waitMs = throttle.waitMs(username, address);
      if (waitMs > 0) throw retryLater(waitMs);
      throttle.attempt(username, address);
      let session: LoginOutput | null;
      try {
        session = await checkPassword(username, password);
      } catch (error) {
        // Only a wrong password counts: a refusal after the right one (no role) is no guess.
        throttle.forgive(username, address);
        throw error;
      }
      if (!session)
        throw new ServiceError("unauthorized", "wrong username or password", {
          code: "auth.wrong_credentials",
        });
      throttle.succeeded(username, address);
      return session;
    },
    async logout(token) {
      await db.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(token)));
    },
    async logoutEverywhere(userId) {
      const ended = await db.delete(sessions).where(eq(sessions.userId, userId)).returning();
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      await recordAudit(db, {
        actor: user?.username ?? userId,
        action: "session.end-all",
        target: user?.username ?? userId,
        details: { ended: ended.length },
      });
      return ended.length;
    },
    async setLocale(userId, locale) {
      await db.update(users).set({ locale }).where(eq(users.id, userId));
    },
    async createToken(userId, label, expiresInDays) {
      const token = randomToken(32);
      const [row] = await db
        .insert(sessions)
        .values({
          tokenHash: sha256Hex(token),
          userId,
          kind: "token",
          label,
          expiresAt: new Date(nowMs() + expiresInDays * DAY_MS),
        })
        .returning();
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      await recordAudit(db, {
        actor: user?.username ?? userId,
        action: "token.create",
        target: label,
        details: { expiresInDays },
      });
      return { token, view: tokenView(must(row, "the inserted token row")) };
    },
    async listTokens(userId) {
      const rows = await db
        .select()
        .from(sessions)
        .where(
          and(
            eq(sessions.userId, userId),
            eq(sessions.kind, "token"),
            gt(sessions.expiresAt, new Date(nowMs())),
          ),
        );
      return rows.map(tokenView);
    },
    async revokeToken(userId, id) {
      const rows = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), eq(sessions.kind, "token")));
      const row = rows.find((r) => r.tokenHash.startsWith(id) && id.length === TOKEN_ID_CHARS);
      if (!row)
        throw new ServiceError(
          "not_found",
          `you have no token with id "${id}"; see the token list`,
          { code: "token.not_found", params: { id } },
        );
      await db.delete(sessions).where(eq(sessions.tokenHash, row.tokenHash));
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      await recordAudit(db, {
        actor: user?.username ?? userId,
        action: "token.revoke",
        target: row.label,
      });
    },
  };
}

function tokenView(row: typeof sessions.$inferSelect) {
  return {
    id: row.tokenHash.slice(0, TOKEN_ID_CHARS),
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
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
  return rows[0] ? principalOf(db, rows[0].user) : null;
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
  await recordAudit(db, {
    actor: "system",
    action: "user.create",
    target: "admin",
    details: { role: "admin" },
  });
  return { username: "admin", password };
}
