// The windows of the replicas and nodes tables (`replicas.page`, `nodes.page`): the rows in the
// table's order from where the page asks, the counts, and a bad window refused with a sentence.
import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";
import type { ReplicaView } from "../replicas/schemas";
import type { NodeSummary } from "../nodes/summary";
import { sortRowsBy, windowOf } from "./window";

function replica(id: string, model: string, nodeName: string, phase = "ready"): ReplicaView {
  return {
    id,
    model,
    profile: "default",
    nodeId: `id-${nodeName}`,
    nodeName,
    gpuIndexes: [0],
    engine: "vllm",
    phase: phase as ReplicaView["phase"],
    message: "",
    endpoint: null,
    phaseChangedAt: "2026-12-04T10:00:00.000Z",
    lastUsedAt: null,
    fetchProgress: null,
    shards: [],
  };
}

function node(name: string, overrides: Partial<NodeSummary> = {}): NodeSummary {
  return {
    id: `id-${name}`,
    name,
    state: "ready",
    simulated: true,
    cordon: null,
    agentVersion: "1.0.0",
    os: "linux",
    arch: "x86_64",
    labels: {},
    lastSeenAt: "2026-12-04T10:00:00.000Z",
    cpuCores: 8,
    memoryBytesTotal: 1,
    disk: { bytesTotal: 100, bytesFree: 50 },
    gpuGroups: [{ name: "H100", count: 8 }],
    gpuMemoryBytesTotal: 1,
    pcieDegradedCount: 0,
    ...overrides,
  };
}

describe("windowOf and sortRowsBy", () => {
  it("keeps node-2 before node-10 and breaks ties in order", () => {
    const rows = ["node-10", "node-2", "node-1"].map((name) => ({ name, group: "a" }));
    const sorted = sortRowsBy(
      rows,
      { key: "group", direction: "desc" },
      { group: (row) => row.group },
      [(row) => row.name],
    );
    expect(sorted.map((row) => row.name)).toEqual(["node-1", "node-2", "node-10"]);
  });

  it("answers the rows from the offset, and the count of them all", () => {
    expect(windowOf([1, 2, 3, 4, 5], 1, 2)).toEqual({ total: 5, offset: 1, rows: [2, 3] });
    expect(windowOf([1, 2, 3], 5, 2)).toEqual({ total: 3, offset: 5, rows: [] });
  });
});

describe("replicas.page", () => {
  const book = [
    replica("r3", "b-model", "node-10"),
    replica("r1", "a-model", "node-2"),
    replica("r2", "a-model", "node-1", "starting"),
    replica("r4", "b-model", "node-3"),
  ];

  it("sorts the whole list on the server and answers the window asked for", async () => {
    const ctx = fakeContext("viewer");
    // The fake's list is typed by its empty default answer.
    ctx.services.replicas.list.mockResolvedValue(book as never[]);
    const caller = appRouter.createCaller(ctx);
    const first = await caller.replicas.page({
      sort: { key: "model", direction: "asc" },
      offset: 0,
      limit: 2,
    });
    expect(first.total).toBe(4);
    expect(first.rows.map((row) => row.id)).toEqual(["r2", "r1"]);
    const byNodeDown = await caller.replicas.page({
      sort: { key: "node", direction: "desc" },
      offset: 1,
      limit: 10,
    });
    expect(byNodeDown).toMatchObject({ total: 4, offset: 1 });
    expect(byNodeDown.rows.map((row) => row.nodeName)).toEqual(["node-3", "node-2", "node-1"]);
  });

  it("asks the service for one model's replicas when one is named", async () => {
    const ctx = fakeContext("viewer");
    const caller = appRouter.createCaller(ctx);
    const sort = { key: "phase", direction: "asc" } as const;
    await caller.replicas.page({ sort, offset: 0, limit: 5 });
    await caller.replicas.page({ model: "chat", sort, offset: 0, limit: 5 });
    expect(ctx.services.replicas.list.mock.calls).toEqual([[{}], [{ model: "chat" }]]);
  });

  it("refuses a bad window or sort with a sentence, and a signed-out caller", async () => {
    const caller = appRouter.createCaller(fakeContext("viewer"));
    const sort = { key: "model", direction: "asc" } as const;
    const tooMany = await caught(caller.replicas.page({ sort, offset: 0, limit: 501 }));
    expect(tooMany.code).toBe("BAD_REQUEST");
    expect(tooMany.message).toContain("limit must be at most 500");
    const negative = await caught(caller.replicas.page({ sort, offset: -1, limit: 5 }));
    expect(negative.message).toContain("offset must not be negative");
    const badKey = await caught(
      caller.replicas.page({
        sort: { key: "id" as "model", direction: "asc" },
        offset: 0,
        limit: 5,
      }),
    );
    expect(badKey.code).toBe("BAD_REQUEST");
    const signedOut = appRouter.createCaller(fakeContext(null));
    expect((await caught(signedOut.replicas.page({ sort, offset: 0, limit: 5 }))).code).toBe(
      "UNAUTHORIZED",
    );
  });
});

describe("nodes.page", () => {
  const fleet = [
    node("gpu-10"),
    node("gpu-2", { labels: { rack: "r1" } }),
    node("gpu-1", { pcieDegradedCount: 2, gpuGroups: [{ name: "L40S", count: 4 }] }),
    node("cpu-1", { gpuGroups: [], cpuCores: 64 }),
  ];

  it("filters and sorts the fleet on the server, with the fleet's and the filter's counts", async () => {
    const ctx = fakeContext("viewer");
    ctx.services.nodes.summaries.mockResolvedValue(fleet);
    const caller = appRouter.createCaller(ctx);
    const all = await caller.nodes.page({
      filter: "",
      sort: { key: "name", direction: "asc" },
      offset: 0,
      limit: 3,
    });
    expect(all).toMatchObject({ fleet: 4, total: 4, offset: 0 });
    expect(all.rows.map((row) => row.name)).toEqual(["cpu-1", "gpu-1", "gpu-2"]);
    const gpus = await caller.nodes.page({
      filter: "gpu",
      sort: { key: "gpus", direction: "desc" },
      offset: 0,
      limit: 10,
    });
    expect(gpus).toMatchObject({ fleet: 4, total: 3 });
    expect(gpus.rows.map((row) => row.name)).toEqual(["gpu-2", "gpu-10", "gpu-1"]);
    const warned = await caller.nodes.page({
      filter: "warning pcie",
      sort: { key: "name", direction: "asc" },
      offset: 0,
      limit: 10,
    });
    expect(warned.rows.map((row) => row.name)).toEqual(["gpu-1"]);
    const rack = await caller.nodes.page({
      filter: "RACK=r1",
      sort: { key: "name", direction: "asc" },
      offset: 0,
      limit: 10,
    });
    expect(rack.rows.map((row) => row.name)).toEqual(["gpu-2"]);
  });

  it("refuses a bad filter or window with a sentence", async () => {
    const caller = appRouter.createCaller(fakeContext("viewer"));
    const sort = { key: "name", direction: "asc" } as const;
    const zero = await caught(caller.nodes.page({ filter: "", sort, offset: 0, limit: 0 }));
    expect(zero.message).toContain("limit must be at least 1");
    const control = await caught(caller.nodes.page({ filter: "a\nb", sort, offset: 0, limit: 5 }));
    expect(control.code).toBe("BAD_REQUEST");
    expect(control.message).toContain("filter must be one line");
    const long = await caught(
      caller.nodes.page({ filter: "x".repeat(201), sort, offset: 0, limit: 5 }),
    );
    expect(long.message).toContain("filter is too long");
  });
});
