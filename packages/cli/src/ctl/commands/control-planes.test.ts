import type { ControlPlaneView } from "@llmgw/api";
import { describe, expect, it } from "vitest";
import { controlPlanesTable } from "./control-planes";

const plane = (over: Partial<ControlPlaneView>): ControlPlaneView => ({
  ...{ name: "cp-a:8080", apiUrl: "http://cp-a:8080", agentUrls: ["wss://cp-a:8081"] },
  ...{ version: "1.4.0", isLeader: false, isLive: true, isThis: false, leaseAgeMs: null },
  ...{ startedAt: "2026-12-02T05:00:00.000Z", lastSeenAt: "2026-12-02T05:10:00.000Z" },
  ...over,
});

describe("ctl control-planes table", () => {
  it("names the leader with its lease age, the standbys, and a control plane gone quiet", () => {
    const text = controlPlanesTable([
      plane({ name: "cp-a:8080", isLeader: true, leaseAgeMs: 185_000, isThis: true }),
      plane({ name: "cp-b:8080", version: "1.3.0" }),
      plane({ name: "cp-c:8080", isLive: false }),
    ]);
    const lines = text.trim().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+ROLE\s+LEASE AGE\s+VERSION/);
    expect(lines[1]).toMatch(/^cp-a:8080 \(answered\)\s+leader\s+3 min\s+1\.4\.0/);
    expect(lines[2]).toMatch(/^cp-b:8080\s+standby\s+-\s+1\.3\.0/);
    expect(lines[3]).toMatch(/^cp-c:8080\s+gone quiet\s+-/);
  });
});
