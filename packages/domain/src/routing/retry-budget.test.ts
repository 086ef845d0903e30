import { describe, expect, it } from "vitest";
import { RetryBudget } from "./retry-budget";

describe("RetryBudget", () => {
  it("allows retries up to a fifth of the requests over the last minute, across requests", () => {
    const budget = new RetryBudget(0.2, 0);
    let attempts = 0;
    // 50 requests, each failing and asking for a retry.
    for (let i = 0; i < 50; i++) {
      budget.onRequest(1_000 + i * 100);
      attempts += 1;
      if (budget.tryRetry(1_000 + i * 100)) attempts += 1;
    }
    expect(attempts).toBe(60);
    expect(attempts).toBeLessThanOrEqual(1.2 * 50);
  });

  it("keeps a floor for quiet models and stays within 1.2 × requests plus that floor", () => {
    const budget = new RetryBudget(0.2, 3);
    let attempts = 0;
    for (let i = 0; i < 20; i++) {
      budget.onRequest(0);
      attempts += 1;
      if (budget.tryRetry(0)) attempts += 1;
    }
    // The floor's 3 are spent on the first requests; 20 requests allow 4 in all.
    expect(attempts).toBe(24);
    expect(attempts).toBeLessThanOrEqual(1.2 * 20);
  });

  it("has no room before enough requests were seen, and refills as the window moves", () => {
    const budget = new RetryBudget(0.2, 0);
    for (let i = 0; i < 4; i++) budget.onRequest(0);
    expect(budget.tryRetry(0)).toBe(false);
    budget.onRequest(0);
    expect(budget.tryRetry(0)).toBe(true);
    expect(budget.tryRetry(0)).toBe(false);
    for (let i = 0; i < 5; i++) budget.onRequest(61_000);
    expect(budget.tryRetry(61_000)).toBe(true);
  });
});
