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

  it("reads embeddings usage without completion tokens, and nothing when absent", () => {
    expect(usageIn('{"data":[],"usage":{"prompt_tokens":3,"total_tokens":3}}')).toEqual({
      promptTokens: 3,
      completionTokens: 0,
    });
    expect(usageIn('{"data":[]}')).toBeNull();
  });
});
