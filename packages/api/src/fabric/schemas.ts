// `llmgw ctl fabric-test A B`: one ib_write_bw run per rail (A's adapter i against B's adapter i),
// each graded against its link's rate.
import { z } from "zod";
import { oneLine } from "../text";

export const FABRIC_RAIL_STATUSES = ["ok", "slow", "failed"] as const;

/** A rail is ok when its average reaches this share of its link's rate. */
export const FABRIC_OK_RATIO = 0.9;

export const FABRIC_SECONDS_DEFAULT = 5;
export const FABRIC_SECONDS_MAX = 60;

export const fabricRailSchema = z.object({
  rail: z.number().int().nonnegative(),
  clientAdapter: z.string(),
  serverAdapter: z.string(),
  /** The slower of the two ports' rates; 0 when sysfs did not say. */
  linkGbps: z.number(),
  averageGbps: z.number().nullable(),
  peakGbps: z.number().nullable(),
  /** averageGbps / linkGbps, null when not measured or the rate is unknown. */
  ratio: z.number().nullable(),
  status: z.enum(FABRIC_RAIL_STATUSES),
  /** What was found, in a sentence. */
  summary: z.string(),
  /** What to do; empty when nothing needs doing. */
  fix: z.string(),
});
export type FabricRailView = z.infer<typeof fabricRailSchema>;

export const fabricTestViewSchema = z.object({
  clientNode: z.string(),
  serverNode: z.string(),
  seconds: z.number().int(),
  /** The worst status among the rails. */
  status: z.enum(FABRIC_RAIL_STATUSES),
  rails: z.array(fabricRailSchema),
});
export type FabricTestView = z.infer<typeof fabricTestViewSchema>;

export const fabricTestInputSchema = z.object({
  clientNode: oneLine("clientNode").trim().min(1, "node A (the client) is required").max(200),
  serverNode: oneLine("serverNode").trim().min(1, "node B (the server) is required").max(200),
  seconds: z
    .number()
    .int("seconds must be a whole number")
    .min(1, "seconds must be at least 1")
    .max(FABRIC_SECONDS_MAX, `seconds must be at most ${FABRIC_SECONDS_MAX}`)
    .default(FABRIC_SECONDS_DEFAULT),
});
export type FabricTestInput = z.infer<typeof fabricTestInputSchema>;
