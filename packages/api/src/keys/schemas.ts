// API keys for /v1: what creating one takes, and how a key is shown (never its secret, except the
// one answer to `keys.create`).
import { z } from "zod";
import { oneLine } from "../text";

const limit = (what: string, max: number) =>
  z
    .number()
    .int(`${what} must be a whole number`)
    .min(1, `${what} must be at least 1`)
    .max(max, `${what} must be at most ${max}`);

/** `team:ml`, `user:ada`, `org:acme`, `project:search`. */
export const keyOwnerSchema = oneLine("owner")
  .trim()
  .regex(
    /^(org|team|project|user):[A-Za-z0-9._@-]{1,100}$/,
    "owner must look like team:ml, user:ada, org:acme or project:search",
  );

export const modelPatternSchema = oneLine("model pattern")
  .trim()
  .min(1, "a model pattern is empty")
  .max(200)
  .regex(/^[A-Za-z0-9._:/*-]+$/, "a model pattern may hold letters, digits, . _ : / - and *");

export const createKeyInputSchema = z.object({
  owner: keyOwnerSchema,
  models: z
    .array(modelPatternSchema)
    .min(1, "name at least one model or pattern (`*` for all)")
    .max(64),
  requestsPerMinute: limit("rpm", 10_000_000).optional(),
  tokensPerMinute: limit("tpm", 1_000_000_000).optional(),
  concurrentMax: limit("max-concurrent", 100_000).optional(),
  /** `local`: requests with this key are never sent to a peer cluster. */
  residency: z.enum(["any", "local"], { error: "residency is any or local" }).optional(),
  /** true: what this key sends is never kept outside this cluster, so never sent to a peer. */
  noStore: z.boolean({ error: "no_store is true or false" }).optional(),
  /** Seconds from now; absent means the key does not expire. */
  expiresInSeconds: limit("expiry", 10 * 365 * 86_400).optional(),
});
export type CreateKeyInput = z.infer<typeof createKeyInputSchema>;

export const keyViewSchema = z.object({
  id: z.string(),
  prefix: z.string(),
  owner: z.string(),
  models: z.array(z.string()),
  requestsPerMinute: z.number().nullable(),
  tokensPerMinute: z.number().nullable(),
  concurrentMax: z.number().nullable(),
  residency: z.enum(["any", "local"]),
  noStore: z.boolean(),
  /** ISO-8601 timestamps. */
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  state: z.enum(["active", "expired", "revoked"]),
});
export type KeyView = z.infer<typeof keyViewSchema>;

export const createdKeySchema = z.object({
  /** The plaintext key: shown in this answer only, never stored. */
  key: z.string(),
  view: keyViewSchema,
});
export type CreatedKey = z.infer<typeof createdKeySchema>;

export const keyIdInputSchema = z.object({
  id: oneLine("id").trim().min(1, "key id is required").max(100),
});
