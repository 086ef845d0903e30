import { describe, expect, it } from "vitest";
import { UsageChunkFilter } from "./usage-stream";

const event = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

describe("the usage chunk filter", () => {
  it("drops the usage-only chunk and the null usage of the others, even split mid-event", () => {
    const upstream = [
      event({ id: "c", choices: [{ delta: { content: "hi" } }], usage: null }),
      event({ id: "c", choices: [{ delta: {}, finish_reason: "stop" }], usage: null }),
      event({ id: "c", choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } }),
      "data: [DONE]\n\n",
    ].join("");
    const filter = new UsageChunkFilter();
    const out: string[] = [];
    // Cut every 7 bytes, so events arrive in pieces and several end inside one piece.
    for (let at = 0; at < upstream.length; at += 7)
      out.push(filter.push(Buffer.from(upstream.slice(at, at + 7))).toString());
    out.push(filter.end().toString());
    expect(out.join("")).toBe(
      [
        event({ id: "c", choices: [{ delta: { content: "hi" } }] }),
        event({ id: "c", choices: [{ delta: {}, finish_reason: "stop" }] }),
        "data: [DONE]\n\n",
      ].join(""),
    );
  });

  it("passes a chunk on at once when it is whole, and one mentioning usage in its text as it is", () => {
    const filter = new UsageChunkFilter();
    const spoken = event({ choices: [{ delta: { content: 'the "usage": null field' } }] });
    expect(filter.push(Buffer.from(spoken)).toString()).toBe(spoken);
    expect(filter.push(Buffer.from("data: [DO")).length).toBe(0);
    expect(filter.end().toString()).toBe("data: [DO");
  });
});
