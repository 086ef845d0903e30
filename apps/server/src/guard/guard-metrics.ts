// The guard's decisions on /metrics, by stage, outcome and policy (never by caller: keys are many),
// and how long its judges take, by judge model and verdict.
import { Counter, Histogram, type Registry } from "prom-client";
import type { Guard } from "./guard";

export function registerGuardMetrics(registry: Registry, guard: Guard): void {
  const decisions = new Counter({
    name: "llmgw_guard_decisions_total",
    help: "Texts the guard read, by stage (prompt, answer, tool_args, tool_result), outcome and policy.",
    labelNames: ["stage", "outcome", "policy"],
    registers: [registry],
  });
  guard.onDecision((stage, outcome, policy) => decisions.inc({ stage, outcome, policy }));
  const judgments = new Histogram({
    name: "llmgw_guard_judge_seconds",
    help: "How long the guard's judge took to give a verdict (allow, injection) or to fail.",
    labelNames: ["model", "outcome"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [registry],
  });
  guard.onJudgment((model, outcome, seconds) => judgments.observe({ model, outcome }, seconds));
}
