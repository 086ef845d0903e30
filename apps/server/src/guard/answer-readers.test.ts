import { redactPii, type GuardPolicy, type GuardStage } from "@llmgw/domain";
import { describe, expect, it } from "vitest";
import { answerReaders } from "./answer-readers";
import type { GuardDecision } from "./guard";
import { StreamGuard } from "./stream-guard";

const who = { subject: "key:k1", levels: ["team:ml", "key:k1"], requestId: "r1" };

const redacting: GuardPolicy = {
  ...{ name: "answers", appliesTo: ["*"], stages: ["answer"], checks: ["pii"] },
  ...{ judgeModel: null, fail: "open", budgetMs: 1_000 },
};

/** A guard that redacts personal data in whatever it is asked to read, and counts the asking. */
function redactingGuard() {
  const asked: GuardStage[] = [];
  return {
    asked,
    covers: () => Promise.resolve(true),
    inspect: (stage: GuardStage, _who: unknown, texts: string[]): Promise<GuardDecision> => {
      asked.push(stage);
      return Promise.resolve({
        outcome: "redacted",
        texts: texts.map((t) => redactPii(t).text),
        reason: "personal data",
        policies: ["answers"],
      });
    },
  };
}

const answer = Buffer.from(
  JSON.stringify({ choices: [{ message: { role: "assistant", content: "mail a@b.example" } }] }),
);

describe("the guard's readers of a /v1 answer", () => {
  it("reads nothing when no policy reads this caller's answers: the answer is piped through", () => {
    const guard = redactingGuard();
    expect(answerReaders(guard, who, [], false, null)).toEqual({});
    expect(answerReaders(guard, who, [], true, "redacted")).toEqual({});
  });

  it("reads a whole JSON answer when a policy covers it, and keeps the prompt's header", async () => {
    const guard = redactingGuard();
    const readers = answerReaders(guard, who, [redacting], false, "prompt-header");
    expect(readers.guardStream).toBeUndefined();
    const read = await readers.rewriteAnswer?.(answer);
    expect(read?.body.toString()).not.toContain("a@b.example");
    expect(read?.header).toBe("redacted");
    expect(guard.asked).toEqual(["answer"]);
  });

  it("reads a stream as it is relayed when a policy covers it", () => {
    const readers = answerReaders(redactingGuard(), who, [redacting], true, null);
    expect(readers.rewriteAnswer).toBeUndefined();
    expect(readers.guardStream?.()).toBeInstanceOf(StreamGuard);
  });
});
