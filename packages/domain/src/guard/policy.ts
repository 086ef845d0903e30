// A guard policy: which callers it covers, which texts it reads, what it looks for, the judge it
// asks for what rules cannot see, and what happens when that judge is slow or down. One schema
// serves the tRPC input, the CLI flags and the store row.
import { z } from "zod";

export const GUARD_STAGES = ["prompt", "answer", "tool_args", "tool_result"] as const;
export type GuardStage = (typeof GUARD_STAGES)[number];
export const GUARD_CHECKS = ["injection", "pii"] as const;
export type GuardCheck = (typeof GUARD_CHECKS)[number];

export const GUARD_BUDGET_MS_DEFAULT = 2_000;

export const guardPolicySchema = z.object({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "a policy name is lower-case letters, digits and dashes"),
  /** `*`, an owner (`team:ml`, `user:ada`) or a key (`key:<id>`); the policy covers any match. */
  appliesTo: z
    .array(z.string().regex(/^(?:\*|(?:team|user|project|key|org):[A-Za-z0-9._@-]{1,128})$/))
    .min(1)
    .max(64),
  stages: z.array(z.enum(GUARD_STAGES)).min(1),
  checks: z.array(z.enum(GUARD_CHECKS)).min(1),
  /** A catalog model that judges injection beyond the rules; null means rules only. */
  judgeModel: z.string().min(1).max(128).nullable(),
  fail: z.enum(["closed", "open"]),
  budgetMs: z.number().int().min(50).max(60_000),
});
export type GuardPolicy = z.infer<typeof guardPolicySchema>;

/** The policies that cover a caller whose levels (owner chain, then `key:<id>`) are given. */
export function policiesFor(
  policies: readonly GuardPolicy[],
  levels: readonly string[],
  stage: GuardStage,
): GuardPolicy[] {
  return policies.filter(
    (p) =>
      p.stages.includes(stage) &&
      p.appliesTo.some((subject) => subject === "*" || levels.includes(subject)),
  );
}
