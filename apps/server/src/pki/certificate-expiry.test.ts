import { describe, expect, it } from "vitest";
import {
  checkCertificateExpiry,
  expiringCertificates,
  type CertificateExpiryDeps,
} from "./certificate-expiry";

const DAY_MS = 86_400_000;
const START_MS = Date.parse("2026-12-03T00:00:00.000Z");

function harness(expiry: Map<string, number>) {
  const recorded: { subjectId: string; params: Record<string, unknown> }[] = [];
  const clock = { nowMs: START_MS, isLeader: true };
  const deps: CertificateExpiryDeps = {
    certificates: { newestExpiryByNode: () => new Map(expiry) },
    warnBeforeMs: 7 * DAY_MS,
    nowMs: () => clock.nowMs,
    nodeName: (nodeId) => (nodeId === "id-a" ? "gpu-a" : nodeId),
    isLeader: () => clock.isLeader,
    record: (_kind, subjectId, params) => recorded.push({ subjectId, params }),
  };
  const announced = new Set<string>();
  return { recorded, clock, tick: () => checkCertificateExpiry(deps, announced) };
}

describe("expiringCertificates", () => {
  it("takes the nodes whose newest certificate ends within the window, or has ended", () => {
    const expiry = new Map([
      ["fresh", START_MS + 20 * DAY_MS],
      ["edge", START_MS + 7 * DAY_MS],
      ["soon", START_MS + DAY_MS],
      ["gone", START_MS - DAY_MS],
    ]);
    expect(expiringCertificates(expiry, START_MS, 7 * DAY_MS).map((c) => c.nodeId)).toEqual([
      "edge",
      "soon",
      "gone",
    ]);
  });
});

describe("the certificate expiry watch", () => {
  it("announces a certificate once, however many ticks see it, with its node's name", () => {
    const expiry = new Map([
      ["id-a", START_MS + 3 * DAY_MS + 3_600_000],
      ["id-b", START_MS + 30 * DAY_MS],
    ]);
    const { recorded, clock, tick } = harness(expiry);
    for (let i = 0; i < 50; i++) {
      tick();
      clock.nowMs += 10_000;
    }
    expect(recorded).toEqual([
      {
        subjectId: "id-a",
        params: { node: "gpu-a", expiresAt: "2026-12-06T01:00:00.000Z", daysLeft: 3 },
      },
    ]);
  });

  it("announces a node again only for a new certificate that nears its end in turn", () => {
    const expiry = new Map([["id-a", START_MS + DAY_MS]]);
    const { recorded, clock, tick } = harness(expiry);
    tick();
    // Renewed: nothing to say while the new one is young, and it was not announced before.
    expiry.set("id-a", START_MS + 30 * DAY_MS);
    tick();
    tick();
    expect(recorded).toHaveLength(1);
    clock.nowMs = START_MS + 25 * DAY_MS;
    tick();
    tick();
    expect(recorded.map((event) => event.params.expiresAt)).toEqual([
      "2026-12-04T00:00:00.000Z",
      "2027-01-02T00:00:00.000Z",
    ]);
  });

  it("says nothing on a standby, and announces once it leads", () => {
    const { recorded, clock, tick } = harness(new Map([["id-a", START_MS + DAY_MS]]));
    clock.isLeader = false;
    tick();
    expect(recorded).toEqual([]);
    clock.isLeader = true;
    tick();
    tick();
    expect(recorded).toHaveLength(1);
  });
});
