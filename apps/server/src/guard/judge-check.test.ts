import { describe, expect, it } from "vitest";
import { timeJudge } from "./judge-check";

/** A judge on a fixed clock: each judgment takes `eachMs`; a burst runs `parallel` at a time. */
function fakeJudge(eachMs: number, parallel: number) {
  let nowMs = 0;
  let running = 0;
  const texts: string[] = [];
  return {
    texts,
    nowMs: () => nowMs,
    judgeOnce: async (_model: string, text: string) => {
      texts.push(text);
      running += 1;
      await Promise.resolve();
      // Judgments past the engine's slots wait a whole turn each.
      nowMs += running > parallel ? eachMs : eachMs / Math.max(1, running);
      running -= 1;
      return { isInjection: false, reason: "" };
    },
  };
}

describe("judge check", () => {
  it("grades a quick judge ok and counts judgments a second from the burst", async () => {
    const judge = fakeJudge(100, 8);
    const check = await timeJudge(judge, {
      model: "j",
      budgetMs: 1_000,
      burst: 4,
      nowMs: judge.nowMs,
    });
    expect(check.singleMs).toEqual([100, 100, 100]);
    expect(check.speed).toBe("ok");
    expect(check.judgmentsPerSecond).toBeGreaterThan(0);
    expect(check.advice).toMatch(/nothing to do/);
  });

  it("grades a judge past the budget slow and says what to do", async () => {
    const judge = fakeJudge(1_500, 1);
    const check = await timeJudge(judge, {
      model: "j",
      budgetMs: 1_000,
      burst: 2,
      nowMs: judge.nowMs,
    });
    expect(check.speed).toBe("slow");
    expect(check.advice).toMatch(/fail: closed policies will refuse/);
  });

  it("begins each judgment with a line of its own, so a prompt cache cannot flatter the judge", async () => {
    const judge = fakeJudge(10, 8);
    await timeJudge(judge, { model: "j", budgetMs: 1_000, burst: 3, nowMs: judge.nowMs });
    const firstLines = judge.texts.map((t) => t.split("\n")[0]);
    expect(new Set(firstLines).size).toBe(judge.texts.length);
    expect((judge.texts[0] ?? "").length).toBeGreaterThan(1_000);
  });
});
