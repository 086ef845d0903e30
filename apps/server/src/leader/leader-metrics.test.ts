// The leader gauges follow the elector at each scrape.
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { LeaseState } from "./lease";
import { registerLeaderMetrics } from "./leader-metrics";

describe("leader metrics", () => {
  it("report whether this process leads and when the lease it last read expires", async () => {
    const now: { leading: boolean; lease?: LeaseState } = { leading: false };
    const registry = new Registry();
    registerLeaderMetrics(registry, {
      ownerName: "cp-1:8080",
      isLeader: () => now.leading,
      lease: () => now.lease,
    });
    const before = await registry.metrics();
    expect(before).toContain('llmgw_leader{owner_name="cp-1:8080"} 0');
    // Before the first read of the store there is no expiry to report.
    expect(before).toMatch(/^llmgw_leader_lease_expiry_timestamp_seconds 0$/m);

    now.leading = true;
    const expiresAt = new Date("2030-01-01T00:00:10.900Z");
    now.lease = {
      isLeader: true,
      owner: "id",
      ownerName: "cp-1:8080",
      expiresAt,
      acquiredAt: expiresAt,
    };
    const after = await registry.metrics();
    expect(after).toContain('llmgw_leader{owner_name="cp-1:8080"} 1');
    expect(after).toContain(
      `llmgw_leader_lease_expiry_timestamp_seconds ${Date.parse("2030-01-01T00:00:10Z") / 1000}`,
    );
  });
});
