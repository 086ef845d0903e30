import { redactPii, type GuardStage } from "@llmgw/domain";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../gateway/errors";
import type { GuardDecision } from "./guard";
import { guardV1Json } from "./v1-guard";

const who = { subject: "key:k1", levels: ["team:ml", "key:k1"], requestId: "r1" };

/** A guard whose one policy redacts, or answers the given outcome. */
function guardThat(outcome: GuardDecision["outcome"] | "redact") {
  return {
    covers: (_stage: GuardStage) => Promise.resolve(true),
    inspect: (_stage: GuardStage, _who: unknown, texts: string[]): Promise<GuardDecision> =>
      Promise.resolve(
        outcome === "redact"
          ? {
              outcome: "redacted",
              texts: texts.map((t) => redactPii(t).text),
              reason: "",
              policies: ["p"],
            }
          : { outcome, texts, reason: "because", policies: ["p"] },
      ),
  };
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe("the guard on /v1 bodies", () => {
  it("redacts a chat answer's message and leaves the rest of the answer as it was", async () => {
    const answer = {
      id: "c1",
      choices: [{ index: 0, message: { role: "assistant", content: "mail ada@example.com" } }],
      usage: { prompt_tokens: 3 },
    };
    const out = await guardV1Json(guardThat("redact"), "answer", who, json(answer));
    expect(JSON.parse(out.raw.toString())).toEqual({
      ...answer,
      choices: [{ index: 0, message: { role: "assistant", content: "mail [redacted:email]" } }],
    });
    expect(out.header).toBe("redacted");
  });

  it("reads every message's text, content parts too, and a completion's prompt list", async () => {
    const request = {
      model: "m",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: [{ type: "text", text: "I am ada@example.com" }] },
      ],
      prompt: ["call +90 532 123 45 67", "plain"],
    };
    const out = JSON.parse(
      (await guardV1Json(guardThat("redact"), "prompt", who, json(request))).raw.toString(),
    );
    expect(out.messages[1].content[0].text).toBe("I am [redacted:email]");
    expect(out.prompt).toEqual(["call [redacted:phone]", "plain"]);
    expect(out.messages[0].content).toBe("be brief");
  });

  it("refuses a withheld prompt and a closed judge's silence with their codes", async () => {
    const body = json({ model: "m", messages: [{ role: "user", content: "x" }] });
    const withheld = await guardV1Json(guardThat("withheld"), "prompt", who, body).catch(
      (e: unknown) => e,
    );
    expect(withheld).toBeInstanceOf(GatewayError);
    expect(withheld).toMatchObject({ status: 400, code: "guard_withheld" });
    const refused = await guardV1Json(guardThat("refused"), "prompt", who, body).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ status: 503, code: "guard_judge_unavailable" });
  });

  it("names a judge that failed open in the header", async () => {
    const body = json({ model: "m", messages: [{ role: "user", content: "x" }] });
    const out = await guardV1Json(guardThat("failed_open"), "prompt", who, body);
    expect(out.header).toBe("failed-open; policy=p");
  });
});
