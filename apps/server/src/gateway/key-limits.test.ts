// Per-key limits in one control plane, and split between several: each admits its share (the
// limit over the live control planes, rounded up) and says so in the refusal.
import type { ApiKeyRow } from "@llmgw/db";
import { describe, expect, it } from "vitest";
import { GatewayError } from "./errors";
import { KEY_LIMITS_SWEEP_MS, KeyLimits } from "./key-limits";

const key = (over: Partial<ApiKeyRow>): ApiKeyRow => ({
  ...{ id: "k1", prefix: "llmgw_ab12", keyHash: "", owner: "team:ml", models: ["*"] },
  ...{ requestsPerMinute: null, tokensPerMinute: null, concurrentMax: null },
  residency: "any",
  noStore: false,
  ...{ expiresAt: null, revokedAt: null, createdBy: "admin", createdAt: new Date(0) },
  lastUsedAt: null,
  ...over,
});

function admitted(limits: KeyLimits, row: ApiKeyRow, tries: number, nowMs = 1_000): number {
  let count = 0;
  for (let i = 0; i < tries; i += 1) {
    try {
      limits.admit(row, nowMs);
      count += 1;
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
    }
  }
  return count;
}

describe("KeyLimits", () => {
  it("admits the whole limit when it is the only control plane", () => {
    expect(admitted(new KeyLimits(), key({ requestsPerMinute: 10 }), 20)).toBe(10);
  });

  it("admits its share with three control planes, rounded up, and names the share", () => {
    const limits = new KeyLimits(() => 3);
    const row = key({ requestsPerMinute: 10 });
    expect(admitted(limits, row, 20)).toBe(4);
    let refusal: unknown;
    try {
      limits.admit(row, 1_000);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GatewayError);
    expect((refusal as GatewayError).status).toBe(429);
    expect((refusal as GatewayError).message).toMatch(
      /over its limit of 4 requests per minute \(this control plane's share of 10\)/,
    );
  });

  it("splits concurrency too, and follows the count as control planes come and go", () => {
    let planes = 2;
    const limits = new KeyLimits(() => planes);
    const row = key({ concurrentMax: 4 });
    expect(admitted(limits, row, 10)).toBe(2);
    planes = 1;
    expect(admitted(limits, row, 10)).toBe(2);
  });

  it("drops the counters of keys idle for a minute, so keys used once are not kept for ever", () => {
    const limits = new KeyLimits();
    for (let i = 0; i < 1_000; i += 1) {
      limits.admit(key({ id: `k${i}` }), 1_000);
      limits.release(`k${i}`, 10, 2_000);
    }
    expect(limits.size).toBe(1_000);
    limits.admit(key({ id: "later" }), 1_000 + KEY_LIMITS_SWEEP_MS + 2_000);
    expect(limits.size).toBe(1);
  });

  it("keeps the counters of a key counted in the last minute, so its limit still holds", () => {
    const limits = new KeyLimits();
    const t0 = 100_000;
    const a = key({ id: "a", requestsPerMinute: 1 });
    limits.admit(key({ id: "b" }), t0);
    limits.admit(a, t0 + 30_000);
    limits.release("a", 0, t0 + 30_500);
    limits.admit(key({ id: "b" }), t0 + KEY_LIMITS_SWEEP_MS);
    expect(admitted(limits, a, 1, t0 + KEY_LIMITS_SWEEP_MS + 1_000)).toBe(0);
  });

  it("keeps the counters of a key with a request in flight, however old", () => {
    const limits = new KeyLimits();
    const t0 = 100_000;
    const a = key({ id: "a", concurrentMax: 1 });
    limits.admit(key({ id: "b" }), t0);
    limits.admit(a, t0 + 1_000);
    limits.admit(key({ id: "b" }), t0 + 2 * KEY_LIMITS_SWEEP_MS);
    expect(admitted(limits, a, 1, t0 + 2 * KEY_LIMITS_SWEEP_MS + 1_000)).toBe(0);
    limits.release("a", 0, t0 + 2 * KEY_LIMITS_SWEEP_MS + 2_000);
    expect(admitted(limits, a, 1, t0 + 2 * KEY_LIMITS_SWEEP_MS + 3_000)).toBe(1);
  });
});
