// The control planes sharing the store (`ctl control-planes`): which one leads, since when, and
// which have gone quiet.
import { z } from "zod";

export const controlPlaneViewSchema = z.object({
  name: z.string(),
  apiUrl: z.string(),
  agentUrls: z.array(z.string()),
  version: z.string(),
  isLeader: z.boolean(),
  /** Wrote its row within the last three leases. */
  isLive: z.boolean(),
  /** ISO-8601. */
  startedAt: z.string(),
  /** ISO-8601. */
  lastSeenAt: z.string(),
  /** How long the leader has held the lease (its current term), in ms; null for the others. */
  leaseAgeMs: z.number().nullable(),
  /** Whether this row is the control plane that answered. */
  isThis: z.boolean(),
});
export type ControlPlaneView = z.infer<typeof controlPlaneViewSchema>;
