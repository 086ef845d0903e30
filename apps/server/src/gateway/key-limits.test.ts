// Per-key limits in one control plane, and split between several: each admits its share (the
// limit over the live control planes, rounded up) and says so in the refusal.
import type { ApiKeyRow } from "@llmgw/db";
import { describe, expect, it } from "vitest";
import { GatewayError } from "./errors";
import { KeyLimits } from "./key-limits";

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
});
