// Join tokens: what a new node presents once, with the CA's fingerprint, to get its certificate.
// The token text (`<id>.<secret>`) is answered by `joinTokens.create` only; lists show the id.
import { z } from "zod";
import { oneLine } from "../text";

/** The longest a join token may live: a month, so a forgotten token stops working by itself. */
export const JOIN_TOKEN_TTL_SECONDS_MAX = 30 * 86_400;

export const createJoinTokenInputSchema = z.object({
  ttlSeconds: z
    .number()
    .int("ttl must be a whole number of seconds")
    .min(60, "ttl must be at least 60 seconds")
    .max(JOIN_TOKEN_TTL_SECONDS_MAX, "ttl must be at most 30 days")
    .default(3600),
  /** Absent: any number of nodes may join with it until it expires. */
  uses: z
    .number()
    .int("uses must be a whole number")
    .min(1, "uses must be at least 1")
    .max(100_000, "uses must be at most 100000")
    .optional(),
  description: oneLine("description").max(200, "description is at most 200 characters").optional(),
});
export type CreateJoinTokenInput = z.infer<typeof createJoinTokenInputSchema>;

export const joinTokenStateSchema = z.enum(["active", "expired", "used-up", "revoked"]);

export const joinTokenViewSchema = z.object({
  id: z.string(),
  description: z.string(),
  createdBy: z.string(),
  /** ISO-8601 timestamps. */
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  uses: z.number().int(),
  usesMax: z.number().int().nullable(),
  state: joinTokenStateSchema,
});
export type JoinTokenView = z.infer<typeof joinTokenViewSchema>;

export const createdJoinTokenSchema = z.object({
  /** `<id>.<secret>`: shown in this answer only; the server keeps a hash of the secret. */
  token: z.string(),
  view: joinTokenViewSchema,
});
export type CreatedJoinToken = z.infer<typeof createdJoinTokenSchema>;

export const joinTokenIdInputSchema = z.object({
  id: oneLine("join token id").min(1, "join token id is required").max(64),
});

/** What a node needs besides the token: where the agent port is and which CA to pin. */
export const joinInfoSchema = z.object({
  /** `wss://host:port` for each name the server's certificate holds that is worth offering. */
  agentUrls: z.array(z.string()),
  caSha256: z.string(),
});
export type JoinInfo = z.infer<typeof joinInfoSchema>;
