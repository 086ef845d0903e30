import { describe, expect, it } from "vitest";
import { UsageScanner, usageIn } from "./usage-scan";

describe("usage scan", () => {
  it("finds usage in the last SSE chunk of a long stream, split across chunks", () => {
    const events = Array.from(
      { length: 500 },
      (_, i) => `data: {"choices":[{"delta":{"content":"t${i}"}}]}\n\n`,
    );
    events.push(
      'data: {"choices":[],"usage":{"prompt_tokens":7,',
      '"completion_tokens":500,"total_tokens":507}}\n\n',
      "data: [DONE]\n\n",
    );
    const scanner = new UsageScanner(() => 42);
    for (const event of events) scanner.see(Buffer.from(event));
    expect(scanner.usage()).toEqual({ promptTokens: 7, completionTokens: 500 });
    expect(scanner.firstByteAtMs).toBe(42);
  });

  it("reads usage at the head of a long answer whose tail says none, the tail kept to its last bytes", () => {
    const scanner = new UsageScanner(() => 0);
    scanner.see(Buffer.from('{"usage":{"prompt_tokens":5,"completion_tokens":6},"pad":"'));
    for (let i = 0; i < 40; i += 1) scanner.see(Buffer.from("x".repeat(1_000)));
    scanner.see(Buffer.from('","usage":null}'));
    expect(scanner.usage()).toEqual({ promptTokens: 5, completionTokens: 6 });
    const late = new UsageScanner(() => 0);
    late.see(Buffer.from('{"usage":{"prompt_tokens":1,"completion_tokens":1},"pad":"'));
    for (let i = 0; i < 40; i += 1) late.see(Buffer.from("y".repeat(1_000)));
    // The tail is read first: its usage wins over the head's.
    late.see(Buffer.from('","usage":{"prompt_tokens":9,"completion_tokens":8}}'));
    expect(late.usage()).toEqual({ promptTokens: 9, completionTokens: 8 });
  });

  it("reads embeddings usage without completion tokens, and nothing when absent", () => {
    expect(usageIn('{"data":[],"usage":{"prompt_tokens":3,"total_tokens":3}}')).toEqual({
      promptTokens: 3,
      completionTokens: 0,
    });
    expect(usageIn('{"data":[]}')).toBeNull();
  });
});
