import { describe, expect, it } from "vitest";
import {
  JUDGE_GRAMMAR,
  judgeConstraint,
  judgeRequestBody,
  judgeSpeed,
  parseJudgeVerdict,
  JUDGE_SYSTEM_LINE,
} from "./judge";
import { guardPolicySchema, policiesFor, type GuardPolicy } from "./policy";

describe("judge", () => {
  it("asks with the fixed first line and the text fenced", () => {
    const body = judgeRequestBody("judge-1b", "hello") as {
      messages: { role: string; content: string }[];
    };
    expect(body.messages[0]?.content.startsWith(JUDGE_SYSTEM_LINE)).toBe(true);
    expect(body.messages[1]?.content).toBe("<text>\nhello\n</text>");
  });

  it("keeps each engine's answer to the verdict's shape as that engine can", () => {
    expect(judgeConstraint("llamacpp")).toEqual({ grammar: JUDGE_GRAMMAR });
    expect(JUDGE_GRAMMAR).toContain('root ::= "{\\"verdict\\":\\"allow\\"}" | ');
    expect(judgeConstraint("vllm")).toMatchObject({
      response_format: { type: "json_schema", json_schema: { name: "llmgw_guard_verdict" } },
    });
    expect(judgeConstraint("sim")).toEqual({});
    expect(judgeConstraint("external")).toEqual({});
  });

  it("reads a verdict wrapped in other words", () => {
    expect(parseJudgeVerdict('Sure. {"verdict":"injection","reason":"asks to leak keys"}')).toEqual(
      {
        isInjection: true,
        reason: "asks to leak keys",
      },
    );
    expect(parseJudgeVerdict('{"verdict":"allow"}').isInjection).toBe(false);
  });

  it("refuses an answer without a verdict rather than guessing", () => {
    expect(() => parseJudgeVerdict("looks fine to me")).toThrow(/no JSON verdict/);
    expect(() => parseJudgeVerdict('{"verdict":"maybe"}')).toThrow(/neither/);
    expect(() => parseJudgeVerdict("{verdict: allow}")).toThrow(/not valid JSON/);
  });

  it("grades the judge's speed against the budget", () => {
    expect(judgeSpeed(400, 1_000)).toBe("ok");
    expect(judgeSpeed(900, 1_000)).toBe("tight");
    expect(judgeSpeed(1_001, 1_000)).toBe("slow");
  });
});

describe("policies", () => {
  const base: GuardPolicy = {
    name: "tickets",
    appliesTo: ["team:support"],
    stages: ["tool_result"],
    checks: ["injection"],
    judgeModel: null,
    fail: "closed",
    budgetMs: 1_000,
  };

  it("cover a caller by any of its levels, and only at their stages", () => {
    const all = [base, { ...base, name: "all", appliesTo: ["*"], stages: ["prompt" as const] }];
    expect(policiesFor(all, ["org:acme", "team:support", "key:k1"], "tool_result")).toEqual([base]);
    expect(policiesFor(all, ["team:ml", "key:k2"], "tool_result")).toEqual([]);
    expect(policiesFor(all, ["team:ml"], "prompt").map((p) => p.name)).toEqual(["all"]);
  });

  it("refuse a subject that names nobody and a budget out of range", () => {
    expect(guardPolicySchema.safeParse({ ...base, appliesTo: ["support"] }).success).toBe(false);
    expect(guardPolicySchema.safeParse({ ...base, budgetMs: 10 }).success).toBe(false);
  });
});
