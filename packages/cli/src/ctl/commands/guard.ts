// The guard: policies that read prompts, answers and MCP tool traffic, and the judge check that
// times the judge model against the policies' budget.
import { GUARD_BUDGET_MS_DEFAULT, type GuardPolicy } from "@llmgw/domain";
import type { GuardJudgeCheck, GuardPolicyView } from "@llmgw/api";
import { parseCountFlag, required, UsageError } from "../args";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

const GUARD_USAGE =
  "guard policy add NAME --applies-to '*|team:NAME|key:ID,…' --stages prompt,answer,tool_args,tool_result --checks injection,pii [--judge MODEL] [--fail closed|open] [--budget-ms 2000] | policy list [--json] | policy remove NAME | judge check [--model M] [--burst 8] [--json]";

const listOf = (flag: string, value: string | undefined): string[] => {
  const list = (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  if (list.length === 0) throw new UsageError(`--${flag} is missing; usage: ${GUARD_USAGE}`);
  return list;
};

function policyFrom(ctx: CommandContext, name: string): GuardPolicy {
  const fail = ctx.values.fail ?? "closed";
  if (fail !== "closed" && fail !== "open")
    throw new UsageError(`--fail takes closed or open, not "${fail}"`);
  return {
    name,
    appliesTo: listOf("applies-to", ctx.values["applies-to"]),
    stages: listOf("stages", ctx.values.stages) as GuardPolicy["stages"],
    checks: listOf("checks", ctx.values.checks) as GuardPolicy["checks"],
    judgeModel: ctx.values.judge ?? null,
    fail,
    budgetMs: parseCountFlag("budget-ms", ctx.values["budget-ms"]) ?? GUARD_BUDGET_MS_DEFAULT,
  };
}

function policiesTable(policies: readonly GuardPolicyView[]): string {
  const rows = policies.map((p) => [
    p.name,
    p.appliesTo.join(","),
    p.stages.join(","),
    p.checks.join(","),
    p.judgeModel ?? "-",
    p.fail,
    `${p.budgetMs} ms`,
  ]);
  return renderTable(["NAME", "APPLIES TO", "STAGES", "CHECKS", "JUDGE", "FAIL", "BUDGET"], rows);
}

function checkReport(check: GuardJudgeCheck): string {
  return [
    `judge ${check.model}: ${check.speed} against a ${check.budgetMs} ms budget`,
    `three judgments of a 280-token prompt: ${check.singleMs.map((ms) => `${ms} ms`).join(", ")}`,
    `${check.burst} at once: ${check.burstMs} ms, about ${check.judgmentsPerSecond} judgments a second`,
    check.advice,
    "",
  ].join("\n");
}

async function policyCommand(ctx: CommandContext, verb: string | undefined, rest: string[]) {
  const name = () => required(rest, 0, "NAME", `guard policy ${verb ?? ""} NAME`);
  switch (verb) {
    case "list":
    case undefined: {
      const policies = await ctx.api.guard.policies.list.query();
      if (ctx.values.json) printJson(ctx, policies);
      else
        ctx.write(
          policies.length === 0
            ? "no guard policies yet; add one with `llmgw ctl guard policy add`\n"
            : policiesTable(policies),
        );
      return 0;
    }
    case "add": {
      const view = await ctx.api.guard.policies.add.mutate(policyFrom(ctx, name()));
      if (ctx.values.json) printJson(ctx, view);
      else ctx.write(`guard policy ${view.name} saved\n`);
      return 0;
    }
    case "remove":
      await ctx.api.guard.policies.remove.mutate({ name: name() });
      ctx.write(`guard policy ${rest[0]} removed\n`);
      return 0;
    default:
      throw new UsageError(`unknown guard policy command "${verb}"; usage: ${GUARD_USAGE}`);
  }
}

async function guardCommand(ctx: CommandContext): Promise<number> {
  const [area, verb, ...rest] = ctx.args;
  if (area === "policy") return policyCommand(ctx, verb, rest);
  if (area === "judge" && verb === "check") {
    const check = await ctx.api.guard.judge.check.mutate({
      model: ctx.values.model,
      burst: parseCountFlag("burst", ctx.values.burst),
    });
    if (ctx.values.json) printJson(ctx, check);
    else ctx.write(checkReport(check));
    return check.speed === "slow" ? 1 : 0;
  }
  throw new UsageError(`unknown guard command "${ctx.args.join(" ")}"; usage: ${GUARD_USAGE}`);
}

export const guardCommands: Record<string, Command> = {
  guard: {
    usage: GUARD_USAGE,
    summary: "guard policies on prompts, answers and MCP tool traffic, and the judge check",
    flags: [
      "applies-to",
      "stages",
      "checks",
      "judge",
      "fail",
      "budget-ms",
      "burst",
      "model",
      "json",
    ],
    takesArguments: true,
    run: guardCommand,
  },
};
