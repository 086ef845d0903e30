// The audit log: who changed what, newest first, with filters.
import { z } from "zod";
import { oneLine } from "../text";

export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string(),
  /** The target with an id replaced by a name (a key's prefix and owner, a person, a group). */
  targetName: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQueryInputSchema = z.object({
  limit: z.number().int().min(1).max(1000).default(200),
  /** Entries older than this id, for the next page. */
  beforeId: z.number().int().positive().optional(),
  action: oneLine("action").trim().max(100).optional(),
  /** Rows whose actor contains this, any case. */
  actor: oneLine("actor").trim().max(200).optional(),
  /** Rows whose target contains this, or names a key, person or group whose name does. */
  target: oneLine("target").trim().max(200).optional(),
});
export type AuditQueryInput = z.infer<typeof auditQueryInputSchema>;
