// The guard's policies and the judge check, as tRPC, the CLI and the console see them. The policy
// itself is the domain's schema; the view adds who wrote it and when.
import { guardPolicySchema } from "@llmgw/domain";
import { z } from "zod";

export const guardPolicyInputSchema = guardPolicySchema;

export const guardPolicyViewSchema = guardPolicySchema.extend({
  createdBy: z.string(),
  updatedAt: z.string(),
});
export type GuardPolicyView = z.infer<typeof guardPolicyViewSchema>;

export const guardPolicyNameInputSchema = z.object({ name: guardPolicySchema.shape.name });

export const guardJudgeCheckInputSchema = z.object({
  /** The judge to time; by default the one the policies name. */
  model: z.string().min(1).max(128).optional(),
  /** Judgments sent at once after the three timed ones. */
  burst: z.number().int().min(1).max(32).default(8),
});

export const guardJudgeCheckSchema = z.object({
  model: z.string(),
  budgetMs: z.number(),
  /** The three single judgments, each timed. */
  singleMs: z.array(z.number()),
  burst: z.number(),
  burstMs: z.number(),
  judgmentsPerSecond: z.number(),
  speed: z.enum(["ok", "tight", "slow"]),
  /** What the operator should do, in words. */
  advice: z.string(),
});
export type GuardJudgeCheck = z.infer<typeof guardJudgeCheckSchema>;
export type GuardJudgeCheckInput = z.input<typeof guardJudgeCheckInputSchema>;
