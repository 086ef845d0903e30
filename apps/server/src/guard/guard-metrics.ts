// The guard's decisions on /metrics, by stage, outcome and policy (never by caller: keys are many).
import { Counter, type Registry } from "prom-client";
import type { Guard } from "./guard";

export function registerGuardMetrics(registry: Registry, guard: Guard): void {
  const decisions = new Counter({
    name: "llmgw_guard_decisions_total",
    help: "Texts the guard read, by stage (prompt, answer, tool_args, tool_result), outcome and policy.",
    labelNames: ["stage", "outcome", "policy"],
    registers: [registry],
  });
  guard.onDecision((stage, outcome, policy) => decisions.inc({ stage, outcome, policy }));
}
