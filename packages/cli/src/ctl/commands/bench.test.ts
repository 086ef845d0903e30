import { describe, expect, it } from "vitest";
import { parseConcurrency, stepShapes } from "./bench";

describe("ctl bench flags", () => {
  it("reads concurrency steps and gives each at least 8 requests, 4 per client", () => {
    expect(parseConcurrency(undefined)).toEqual([1, 4, 16]);
    expect(stepShapes({ values: { concurrency: "1, 32" } })).toEqual([
      { concurrency: 1, requests: 8, promptTokens: 256, maxTokens: 128 },
      { concurrency: 32, requests: 128, promptTokens: 256, maxTokens: 128 },
    ]);
    const set = { concurrency: "2", requests: "5", "prompt-tokens": "64", "max-tokens": "16" };
    expect(stepShapes({ values: set })).toEqual([
      { concurrency: 2, requests: 5, promptTokens: 64, maxTokens: 16 },
    ]);
  });

  it("refuses steps that are not whole numbers from 1 to 1024, and naming the flag", () => {
    for (const bad of ["0", "4,x", "2048", "1.5", ""])
      expect(() => parseConcurrency(bad)).toThrow(
        /--concurrency takes whole numbers from 1 to 1024/,
      );
    expect(() => stepShapes({ values: { "max-tokens": "-1" } })).toThrow(
      /--max-tokens takes a whole number/,
    );
  });
});
