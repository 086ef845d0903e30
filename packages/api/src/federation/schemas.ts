// Federation: peer clusters whose models are offered here as `PEER/MODEL`. The peer's key travels
// in once, is sealed, and never comes back out.
import { z } from "zod";
import { oneLine } from "../text";

export const peerNameSchema = oneLine("peer name")
  .trim()
  .regex(
    /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/,
    "peer name: lower-case letters, digits and - (up to 32), starting and ending with a letter or digit",
  );

export const federationAddInputSchema = z.object({
  name: peerNameSchema,
  url: oneLine("url").trim().min(1, "url is required").max(2_000),
  key: oneLine("key").trim().min(1, "the peer's key is empty").max(4_096),
  sendsTags: z.boolean().default(false),
});
export type FederationAddInput = z.input<typeof federationAddInputSchema>;

export const federationNameInputSchema = z.object({ name: peerNameSchema });
export const federationSyncInputSchema = z.object({ name: peerNameSchema.optional() });

export const peerModelViewSchema = z.object({
  /** As offered here: `PEER/MODEL`. */
  name: z.string(),
  /** The peer no longer offers it; kept because a fallback here still names it. */
  isWithdrawn: z.boolean(),
});

export const peerViewSchema = z.object({
  name: z.string(),
  url: z.string(),
  sendsTags: z.boolean(),
  /** up: its last /ready check passed; down: taken out of routing; unknown: not checked yet. */
  state: z.enum(["up", "down", "unknown"]),
  /** How long its last /ready check took; null before the first. */
  latencyMs: z.number().nullable(),
  /** Why it is down, when it is. */
  lastError: z.string().nullable(),
  models: z.array(peerModelViewSchema),
  /** ISO-8601; null before the first sync that worked. */
  syncedAt: z.string().nullable(),
  createdBy: z.string(),
});
export type PeerView = z.infer<typeof peerViewSchema>;

export const federationSyncResultSchema = z.object({
  peer: z.string(),
  ok: z.boolean(),
  added: z.array(z.string()),
  withdrawn: z.array(z.string()),
  removed: z.array(z.string()),
  /** Why the sync did not work, when it did not. */
  error: z.string().nullable(),
});
export type FederationSyncResult = z.infer<typeof federationSyncResultSchema>;
