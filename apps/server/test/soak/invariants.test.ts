import { describe, expect, it } from "vitest";
import { explainFailure, OrphanEngines, reconcileUsage, settledSince } from "./invariants";

const refusal = (status: number, code?: string) => ({
  kind: "refused" as const,
  status,
  body: JSON.stringify({ error: { message: "no", ...(code ? { code } : {}) } }),
});

describe("explainFailure", () => {
  it("explains a cut stream only by the code its error event names", () => {
    expect(explainFailure({ kind: "cut", errorCode: "upstream_failed" }).explained).toBe(true);
    expect(explainFailure({ kind: "cut", errorCode: "unknown" }).explained).toBe(false);
  });

  it("explains a 429 or 503 that carries a code, nothing else", () => {
    expect(explainFailure(refusal(503, "no_ready_replica"))).toEqual({
      explained: true,
      how: "503 no_ready_replica",
    });
    expect(explainFailure(refusal(429, "rate_limited")).explained).toBe(true);
    expect(explainFailure(refusal(503)).explained).toBe(false);
    expect(explainFailure(refusal(500, "internal_error")).explained).toBe(false);
    expect(explainFailure({ kind: "refused", status: 503, body: "<html>" }).explained).toBe(false);
  });

  it("never explains a stream that just stopped or a connection that failed", () => {
    expect(explainFailure({ kind: "broken", why: "socket hang up" })).toEqual({
      explained: false,
      how: "socket hang up",
    });
  });
});

describe("reconcileUsage", () => {
  const ok = { kind: "ok" as const };

  it("accepts one 200 row per streamed request and a matching or absent row per refusal", () => {
    const requests = [
      { requestId: "s-0-0", end: ok },
      { requestId: "s-0-1", end: { kind: "cut" as const, errorCode: "upstream_failed" } },
      { requestId: "s-0-2", end: refusal(503, "no_ready_replica") },
      { requestId: "s-0-3", end: refusal(503, "store_unavailable") },
    ];
    const rows = [
      { requestId: "s-0-0", status: 200 },
      { requestId: "s-0-1", status: 200 },
      { requestId: "s-0-2", status: 503 },
    ];
    expect(reconcileUsage(requests, rows)).toEqual([]);
  });

  it("names a streamed request without a row, a double row, a wrong status and a stray row", () => {
    const requests = [
      { requestId: "a", end: ok },
      { requestId: "b", end: ok },
      { requestId: "c", end: ok },
      { requestId: "d", end: refusal(429, "rate_limited") },
    ];
    const rows = [
      { requestId: "b", status: 200 },
      { requestId: "b", status: 200 },
      { requestId: "c", status: 502 },
      { requestId: "d", status: 503 },
      { requestId: "z", status: 200 },
    ];
    expect(reconcileUsage(requests, rows)).toEqual([
      "a: streamed to the client, no usage row",
      "b: 2 usage rows",
      "c: streamed to the client, recorded as 502",
      "d: refused with 429, recorded as 503",
      "z: 1 usage row(s) for a request no client sent",
    ]);
  });
});

describe("OrphanEngines", () => {
  it("lets an engine the store no longer holds run for the bound, and names it past it", () => {
    const orphans = new OrphanEngines(30_000);
    const engines = [
      { replicaId: "a-1", node: "n1" },
      { replicaId: "b-1", node: "n2" },
    ];
    const held = new Set(["a-1"]);
    expect(orphans.check(engines, held, 0)).toEqual([]);
    expect(orphans.check(engines, held, 30_000)).toEqual([]);
    expect(orphans.check(engines, held, 31_000)).toEqual([
      "n2 still runs the engine of b-1, which the control plane no longer holds, 31 s on",
    ]);
  });

  it("starts the clock again for an engine that was stopped and an id seen afresh", () => {
    const orphans = new OrphanEngines(30_000);
    const b = [{ replicaId: "b-1", node: "n2" }];
    orphans.check(b, new Set(), 0);
    expect(orphans.check([], new Set(), 20_000)).toEqual([]);
    expect(orphans.check(b, new Set(), 40_000)).toEqual([]);
    expect(orphans.check(b, new Set(), 71_000)).toHaveLength(1);
  });
});

describe("settledSince", () => {
  const at = (atMs: number, settled: boolean) => ({ atMs, settled });

  it("takes the first sample after the fault from which every later one is settled", () => {
    const samples = [
      at(0, false),
      at(1_000, true),
      at(2_000, false),
      at(3_000, true),
      at(4_000, true),
    ];
    expect(settledSince(samples, 500)).toBe(3_000);
  });

  it("ignores samples before the fault ended, settled or not", () => {
    expect(settledSince([at(0, true), at(1_000, false), at(2_000, true)], 1_500)).toBe(2_000);
    expect(settledSince([at(0, true), at(1_000, true)], 1_500)).toBeUndefined();
  });

  it("says nothing when the last sample was not settled", () => {
    expect(settledSince([at(1_000, true), at(2_000, false)], 0)).toBeUndefined();
  });
});
