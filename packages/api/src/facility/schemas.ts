// Facility domains as the API shows them: each rack, row… with its nodes, cards, hold and power,
// and the inputs that hold and release one. A domain is written KIND=VALUE (`rack=r12`).
import { z } from "zod";
import { parseDomain } from "@llmgw/domain";

export const domainTextSchema = z.string().superRefine((text, ctx) => {
  const parsed = parseDomain(text);
  if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.error });
});

export const facilityHoldViewSchema = z.object({
  domain: z.string(),
  isDraining: z.boolean(),
  heldBy: z.string(),
  /** ISO-8601. */
  heldAt: z.string(),
});
export type FacilityHoldView = z.infer<typeof facilityHoldViewSchema>;

export const facilityDomainViewSchema = z.object({
  /** `rack=r12`. */
  domain: z.string(),
  kind: z.string(),
  value: z.string(),
  nodes: z.array(z.string()),
  cards: z.number().int(),
  /** What the cards drew at their last heartbeats, summed; null when none reported it. */
  powerWatts: z.number().nullable(),
  hold: facilityHoldViewSchema.nullable(),
});
export type FacilityDomainView = z.infer<typeof facilityDomainViewSchema>;

export const facilityViewSchema = z.object({
  domains: z.array(facilityDomainViewSchema),
  /** Every hold, also those on a domain no node names now. */
  holds: z.array(facilityHoldViewSchema),
});
export type FacilityView = z.infer<typeof facilityViewSchema>;

export const facilityHoldInputSchema = z.object({
  domain: domainTextSchema,
  drain: z.boolean().default(false),
});

export const facilityReleaseInputSchema = z.object({ domain: domainTextSchema });

export const nodeCordonInputSchema = z.object({
  id: z.string().min(1, "node id is required").max(200),
  /** Cordoned: nothing new placed; draining: replicas moved off too; null: uncordon. */
  state: z.enum(["cordoned", "draining"]).nullable(),
});
export type NodeCordonInput = z.infer<typeof nodeCordonInputSchema>;
