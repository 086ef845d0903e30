// The GuardService behind the `guard` tRPC router: policies in the store (audited, never holding
// any text) and the judge check, which times the judge the way the guard will use it.
import { ServiceError, type Actor, type GuardPolicyView, type GuardService } from "@llmgw/api";
import { auditLog, eq, guardPolicies, type Database, type GuardPolicyRow } from "@llmgw/db";
import { GUARD_BUDGET_MS_DEFAULT, messageOf, must, type GuardPolicy } from "@llmgw/domain";
import type { Guard } from "./guard";
import { timeJudge } from "./judge-check";

export interface GuardServiceDeps {
  db: Database;
  guard: Guard;
  /** Whether the catalog holds a model of this name. */
  hasModel(name: string): boolean;
  nowMs(): number;
}

function policyView(row: GuardPolicyRow): GuardPolicyView {
  return {
    name: row.name,
    appliesTo: row.appliesTo,
    stages: row.stages as GuardPolicy["stages"],
    checks: row.checks as GuardPolicy["checks"],
    judgeModel: row.judgeModel,
    fail: row.fail as GuardPolicy["fail"],
    budgetMs: row.budgetMs,
    createdBy: row.createdBy,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function createGuardService(deps: GuardServiceDeps): GuardService {
  const { db, guard } = deps;
  const audit = (actor: Actor, action: string, name: string, details = {}) =>
    db.insert(auditLog).values({
      at: new Date(deps.nowMs()),
      actor: actor.username,
      action,
      target: name,
      details,
    });
  return {
    async listPolicies() {
      const rows = await db.select().from(guardPolicies).orderBy(guardPolicies.name);
      return rows.map(policyView);
    },
    async addPolicy(input, actor) {
      if (input.judgeModel && !deps.hasModel(input.judgeModel))
        throw new ServiceError(
          "invalid",
          `judge model "${input.judgeModel}" is not in the catalog; add it first (llmgw ctl model add)`,
          { code: "guard.judge_not_in_catalog", params: { model: input.judgeModel } },
        );
      const at = new Date(deps.nowMs());
      const values = { ...input, createdBy: actor.username, updatedAt: at };
      const [row] = await db
        .insert(guardPolicies)
        .values(values)
        .onConflictDoUpdate({ target: guardPolicies.name, set: values })
        .returning();
      guard.policiesChanged();
      await audit(actor, "guard.policy.add", input.name, { ...input });
      return policyView(must(row, "the stored policy"));
    },
    async removePolicy(name, actor) {
      const removed = await db
        .delete(guardPolicies)
        .where(eq(guardPolicies.name, name))
        .returning();
      if (removed.length === 0)
        throw new ServiceError(
          "not_found",
          `no guard policy named "${name}"; see llmgw ctl guard policy list`,
          {
            code: "guard.policy_not_found",
            params: { name },
          },
        );
      guard.policiesChanged();
      await audit(actor, "guard.policy.remove", name);
      return { name };
    },
    async checkJudge(input) {
      const policies = await guard.policies();
      const judged = policies.filter(
        (p) => p.judgeModel && (!input.model || p.judgeModel === input.model),
      );
      const model = input.model ?? judged[0]?.judgeModel;
      if (!model)
        throw new ServiceError("invalid", "no policy names a judge; give one with --model", {
          code: "guard.no_judge",
        });
      const budgetMs = Math.min(...judged.map((p) => p.budgetMs), GUARD_BUDGET_MS_DEFAULT * 5);
      try {
        return await timeJudge(guard, {
          model,
          budgetMs,
          burst: input.burst ?? 8,
          nowMs: deps.nowMs,
        });
      } catch (error) {
        throw new ServiceError(
          "unavailable",
          `judge ${model} did not answer: ${messageOf(error)}`,
          {
            code: "guard.judge_unavailable",
            params: { model },
          },
        );
      }
    },
  };
}
