// API keys: the tRPC service (create, list, revoke) and the lookup /v1 does on every request.
// Rows are cached by prefix (key-cache.ts) so a request costs no query, and a key's checksum and
// HMAC are checked once (verified-keys.ts) while its revocation and expiry are read from the row
// every time; a revoke here drops the cached row at once, and another control plane sharing the
// store sees it within 5 s. While the store is out of reach or slow, a key's last answer keeps
// serving (up to 10 minutes), so a PostgreSQL restart fails and holds up no request of a key seen
// before it.
import { randomUUID } from "node:crypto";
import { apiKeys, desc, eq, type ApiKeyRow, type Database } from "@llmgw/db";
import {
  ServiceError,
  type Actor,
  type CreateKeyInput,
  type KeysService,
  type KeyView,
} from "@llmgw/api";
import { parseApiKey } from "@llmgw/domain";
import type { EventRecorder } from "../events/event-recorder";
import { hashApiKey, hashesEqual, newApiKey } from "./key-hash";
import { recordAudit } from "../identity/audit";
import { KeyCache } from "./key-cache";
import { VerifiedKeys } from "./verified-keys";
import { SharedStrings } from "../shared-strings";

/** Distinct owners, creators and model patterns kept for sharing among the cached key rows. */
const KEY_STRINGS_MAX = 4_096;

/**
 * The row the key cache keeps: made as one literal (the driver adds a row's fields one by one,
 * which leaves most of them in a separate property array), with the values many keys repeat
 * (owner, creator, residency, model patterns) shared.
 */
function cachedKeyRow(row: ApiKeyRow | undefined, strings: SharedStrings): ApiKeyRow | undefined {
  if (!row) return row;
  return {
    id: row.id,
    prefix: row.prefix,
    keyHash: row.keyHash,
    owner: strings.share(row.owner),
    models: strings.shareAll(row.models),
    requestsPerMinute: row.requestsPerMinute,
    tokensPerMinute: row.tokensPerMinute,
    concurrentMax: row.concurrentMax,
    residency: strings.share(row.residency),
    noStore: row.noStore,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    createdBy: strings.share(row.createdBy),
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  };
}

type KeyCheck = { ok: true; key: ApiKeyRow } | { ok: false; why: string };

export interface GatewayKeys extends KeysService {
  /** Checks a presented key: format and checksum, the stored hash, revocation and expiry. */
  check(presented: string): Promise<KeyCheck>;
}

function keyView(row: ApiKeyRow, nowMs: number): KeyView {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  const state = row.revokedAt
    ? "revoked"
    : row.expiresAt && row.expiresAt.getTime() <= nowMs
      ? "expired"
      : "active";
  return {
    id: row.id,
    prefix: row.prefix,
    owner: row.owner,
    models: row.models,
    requestsPerMinute: row.requestsPerMinute,
    tokensPerMinute: row.tokensPerMinute,
    concurrentMax: row.concurrentMax,
    residency: row.residency,
    noStore: row.noStore,
    expiresAt: iso(row.expiresAt),
    revokedAt: iso(row.revokedAt),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: iso(row.lastUsedAt),
    state,
  };
}

export function createKeysService(
  db: Database,
  pepper: Uint8Array,
  nowMs: () => number,
  events?: EventRecorder,
): GatewayKeys {
  const strings = new SharedStrings(KEY_STRINGS_MAX);
  const cache = new KeyCache(
    async (prefix: string) =>
      cachedKeyRow((await db.select().from(apiKeys).where(eq(apiKeys.prefix, prefix)))[0], strings),
    nowMs,
  );
  const byPrefix = (prefix: string) => cache.get(prefix);
  // A key's checksum and HMAC are checked once, not on every request; its row's state every time.
  const verified = new VerifiedKeys((presented, keyHash) =>
    hashesEqual(hashApiKey(pepper, presented), keyHash),
  );
  return {
    async create(input, actor) {
      const created = await createKey(db, pepper, input, actor, nowMs());
      const { view } = created;
      events?.record("key.created", view.id, {
        owner: view.owner,
        prefix: view.prefix,
        models: view.models.join(","),
        actor: actor.username,
      });
      return created;
    },
    async list() {
      const rows = await db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt));
      return rows.map((row) => keyView(row, nowMs()));
    },
    async get(id: string) {
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
      return row ? keyView(row, nowMs()) : null;
    },
    async revoke(id: string, actor: Actor) {
      const [row] = await db
        .update(apiKeys)
        .set({ revokedAt: new Date(nowMs()) })
        .where(eq(apiKeys.id, id))
        .returning();
      if (!row)
        throw new ServiceError(
          "not_found",
          `no API key with id "${id}"; see \`llmgw ctl keys list\``,
          { code: "key.not_found", params: { id } },
        );
      cache.drop(row.prefix);
      verified.forget(row.keyHash);
      events?.record("key.revoked", row.id, {
        owner: row.owner,
        prefix: row.prefix,
        actor: actor.username,
      });
      await recordAudit(db, {
        actor: actor.username,
        action: "key.revoke",
        target: row.id,
        details: { owner: row.owner, prefix: row.prefix },
      });
      return keyView(row, nowMs());
    },
    async check(presented) {
      let prefix = verified.prefixOf(presented);
      if (prefix === undefined) {
        const parsed = parseApiKey(presented);
        if (!parsed.ok) return { ok: false, why: parsed.why };
        prefix = parsed.prefix;
      }
      const row = await byPrefix(prefix);
      if (!row || !verified.matches(presented, prefix, row.keyHash))
        return { ok: false, why: "the API key is not known" };
      if (row.revokedAt)
        return {
          ok: false,
          why: `the API key ${row.prefix} was revoked at ${row.revokedAt.toISOString()}`,
        };
      if (row.expiresAt && row.expiresAt.getTime() <= nowMs())
        return {
          ok: false,
          why: `the API key ${row.prefix} expired at ${row.expiresAt.toISOString()}`,
        };
      return { ok: true, key: row };
    },
  };
}

async function createKey(
  db: Database,
  pepper: Uint8Array,
  input: CreateKeyInput,
  actor: Actor,
  nowMs: number,
) {
  const { key, prefix } = newApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: randomUUID(),
      prefix,
      keyHash: hashApiKey(pepper, key),
      owner: input.owner,
      models: input.models,
      requestsPerMinute: input.requestsPerMinute ?? null,
      tokensPerMinute: input.tokensPerMinute ?? null,
      concurrentMax: input.concurrentMax ?? null,
      residency: input.residency ?? "any",
      noStore: input.noStore ?? false,
      expiresAt:
        input.expiresInSeconds === undefined
          ? null
          : new Date(nowMs + input.expiresInSeconds * 1_000),
      createdBy: actor.username,
      createdAt: new Date(nowMs),
    })
    .returning();
  if (!row) throw new Error("the new API key was not stored");
  const { expiresInSeconds, ...limits } = input;
  await recordAudit(db, {
    actor: actor.username,
    action: "key.create",
    target: row.id,
    details: {
      ...limits,
      prefix,
      expiresAt: row.expiresAt?.toISOString() ?? expiresInSeconds ?? null,
    },
  });
  return { key, view: keyView(row, nowMs) };
}
