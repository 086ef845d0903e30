import { describe, expect, it } from "vitest";
import { failureBackoffMs, replaceNotBeforeMs } from "./failure-backoff";

const policy = { baseMs: 1_000, capMs: 30_000 };

describe("failure backoff", () => {
  it("doubles with each failure in a row, within ±20 % of base × 2^(n−1), up to the cap", () => {
    for (let failures = 1; failures <= 8; failures += 1) {
      const plain = Math.min(policy.capMs, policy.baseMs * 2 ** (failures - 1));
      const wait = failureBackoffMs("qwen-7b", failures, policy);
      expect(wait).toBeGreaterThanOrEqual(plain * 0.8);
      expect(wait).toBeLessThanOrEqual(plain * 1.2);
    }
    // Each wait is longer than the one before until the cap: 0.8 × 2 > 1.2.
    const waits = [1, 2, 3, 4].map((n) => failureBackoffMs("qwen-7b", n, policy));
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
    expect(failureBackoffMs("qwen-7b", 40, policy)).toBeLessThanOrEqual(policy.capMs * 1.2);
  });

  it("is the same every pass for a model and count, and differs between models", () => {
    expect(failureBackoffMs("a", 3, policy)).toBe(failureBackoffMs("a", 3, policy));
    const spread = new Set(
      ["a", "b", "c", "d", "e", "f"].map((name) => failureBackoffMs(name, 3, policy)),
    );
    expect(spread.size).toBeGreaterThan(3);
  });

  it("holds nothing back without failures, without a moment, or with a base of 0", () => {
    const health = {
      name: "m",
      consecutiveFailures: 2,
      isParked: false,
      lastError: "x",
      revision: 1,
    };
    expect(
      replaceNotBeforeMs({ ...health, consecutiveFailures: 0, lastFailureAtMs: 5 }, policy),
    ).toBeNull();
    expect(replaceNotBeforeMs(health, policy)).toBeNull();
    expect(replaceNotBeforeMs({ ...health, lastFailureAtMs: 5 }, { baseMs: 0, capMs: 0 })).toBe(5);
    expect(replaceNotBeforeMs({ ...health, lastFailureAtMs: 5 }, policy)).toBe(
      5 + failureBackoffMs("m", 2, policy),
    );
  });
});
