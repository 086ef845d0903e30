import { describe, expect, it } from "vitest";
import type { ClusterStatus, ReplicaView } from "@llmgw/api";
import { usageBar } from "../table";
import { reclaimText, replicasTable, statusText } from "./cluster-view";

const NOW = Date.parse("2030-01-01T00:10:00Z");

function replica(overrides: Partial<ReplicaView>): ReplicaView {
  return {
    id: "sim-chat-1",
    model: "sim-chat",
    profile: "sim",
    nodeId: "n1",
    nodeName: "sim-cpu-a",
    gpuIndexes: [],
    engine: "sim",
    phase: "ready",
    message: "",
    endpoint: "http://127.0.0.1:40001",
    phaseChangedAt: "2030-01-01T00:00:00Z",
    lastUsedAt: "2030-01-01T00:08:00Z",
    fetchProgress: null,
    shards: [],
    ...overrides,
  };
}

describe("replicas table", () => {
  it("shows cards, phase with fetch progress, endpoint and last use", () => {
    const text = replicasTable(
      [
        replica({}),
        replica({
          id: "gpu-1",
          model: "sim-gpu-chat",
          nodeName: "sim-h100-a",
          gpuIndexes: [0, 1],
          phase: "fetching",
          fetchProgress: 0.425,
          endpoint: null,
          lastUsedAt: null,
        }),
      ],
      NOW,
    );
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+MODEL\s+NODE\s+CARDS\s+PHASE\s+ENDPOINT\s+LAST USED$/);
    expect(lines[1]).toMatch(
      /^sim-chat-1\s+sim-chat\s+sim-cpu-a\s+CPU\s+ready\s+http:\/\/127\.0\.0\.1:40001\s+2m ago$/,
    );
    expect(lines[2]).toMatch(/^gpu-1\s+sim-gpu-chat\s+sim-h100-a\s+0,1\s+fetching 43%\s+-\s+-$/);
  });
});

describe("replicas table for a replica spanning nodes", () => {
  it("lists its shards under it by rank, with each shard's node, cards and phase", () => {
    const shard = (rank: number, nodeName: string, phase: ReplicaView["phase"]) => ({
      ...{ rank, nodeId: nodeName, nodeName, gpuIndexes: [0, 1], phase, message: "" },
    });
    const text = replicasTable(
      [
        replica({
          id: "big-1",
          model: "big",
          phase: "starting",
          endpoint: null,
          lastUsedAt: null,
          shards: [shard(0, "gpu-a", "ready"), shard(1, "gpu-b", "starting")],
        }),
      ],
      NOW,
    );
    const lines = text.trimEnd().split("\n");
    expect(lines[1]).toMatch(/^big-1\s+big\s+2 nodes\s+-\s+starting\s+-\s+-$/);
    expect(lines[2]).toMatch(/^ {2}rank 0\s+leader\s+gpu-a\s+0,1\s+ready$/);
    expect(lines[3]).toMatch(/^ {2}rank 1\s+worker\s+gpu-b\s+0,1\s+starting$/);
  });
});

describe("status", () => {
  const status: ClusterStatus = {
    clusterId: "00000000-0000-4000-8000-000000000000",
    nodesReady: 3,
    nodesUnreachable: 1,
    freeWholeNodes: ["gpu-1", "gpu-2", "gpu-3", "sim-l40s-a"],
    freeWholeNodesByFabric: [
      {
        fabric: "ib-a",
        nodes: 3,
        byCardModel: [
          { cardModel: "H100-80G", cardsPerNode: 2, nodes: 1 },
          { cardModel: "H100-80G", cardsPerNode: 8, nodes: 2 },
        ],
      },
      {
        fabric: null,
        nodes: 1,
        byCardModel: [{ cardModel: "L40S", cardsPerNode: 4, nodes: 1 }],
      },
    ],
    unaskedForWindowHours: 24,
    unaskedFor: [
      { model: "qwen-72b", replicasReady: 2, cardsHeld: 16 },
      { model: "tiny", replicasReady: 1, cardsHeld: 1 },
    ],
    capacity: [
      { gpuClass: "H100-80G", cardsTotal: 16, cardsUsed: 12, cardsUnhealthy: 0 },
      { gpuClass: "L40S", cardsTotal: 5, cardsUsed: 1, cardsUnhealthy: 1 },
    ],
    replicasReady: 3,
    replicasDesired: 4,
    modelsReady: 1,
    modelsTotal: 3,
    parked: [{ model: "broken", lastError: "never became ready in 300 s" }],
    unplaceable: [
      { model: "big", reasons: ["sim-l40s-a: needs 80 GB cards", "sim-cpu-a: no GPU"] },
    ],
  };

  it("draws a usage bar per GPU class, counting unhealthy cards neither used nor free", () => {
    const text = statusText(status);
    expect(text).toContain("  H100-80G  █████████░░░  12/16\n");
    expect(text).toContain(
      "  L40S      ███░░░░░░░░░  1/4  (1 unhealthy, counted neither used nor free)\n",
    );
    expect(text).toMatch(/^nodes\s+3 ready, 1 unreachable$/m);
    expect(text).toMatch(/^replicas\s+3\/4 ready$/m);
    expect(text).toMatch(/^models\s+1\/3 ready$/m);
    expect(text).toMatch(/^free whole nodes: gpu-1, gpu-2, gpu-3, sim-l40s-a$/m);
  });

  it("counts free whole nodes per fabric by card model, and lists unasked-for models", () => {
    const text = statusText(status);
    expect(text).toMatch(/^free whole nodes per fabric \(llmgw\.io\/fabric\):$/m);
    expect(text).toMatch(/^ {2}ib-a\s+3 {2}1 × 2 H100-80G, 2 × 8 H100-80G$/m);
    expect(text).toMatch(/^ {2}\(no fabric\)\s+1 {2}1 × 4 L40S$/m);
    expect(text).toMatch(/^unasked-for \(ready, no request in 24 h\):$/m);
    expect(text).toMatch(/^ {2}MODEL\s+REPLICAS\s+HOLDS$/m);
    expect(text).toMatch(/^ {2}qwen-72b\s+2 ready\s+16 cards$/m);
    expect(text).toMatch(/^ {2}tiny\s+1 ready\s+1 card$/m);
  });

  it("lists parked models with their error and unplaceable ones with each reason", () => {
    const text = statusText(status);
    expect(text).toMatch(/^parked .*\n {2}broken: never became ready in 300 s$/m);
    expect(text).toMatch(
      /^ {2}big:\n {4}- sim-l40s-a: needs 80 GB cards\n {4}- sim-cpu-a: no GPU$/m,
    );
    const calm = statusText({
      ...status,
      parked: [],
      unplaceable: [],
      capacity: [],
      freeWholeNodes: [],
      freeWholeNodesByFabric: [],
      unaskedFor: [],
    });
    expect(calm).not.toMatch(/parked|cannot be placed/);
    expect(calm).toMatch(/no GPUs in the fleet/);
    expect(calm).toMatch(/free whole nodes: none/);
    expect(calm).not.toMatch(/per fabric/);
    expect(calm).toMatch(/^unasked-for \(ready, no request in 24 h\): none$/m);
  });

  it("never divides by zero or overfills a bar", () => {
    expect(usageBar(0, 0)).toBe("░".repeat(12));
    expect(usageBar(9, 8)).toBe("█".repeat(12));
    expect(usageBar(4, 8, 4)).toBe("██░░");
  });
});

describe("reclaim", () => {
  const entry = {
    cacheName: "ab12",
    source: "https://x/m.gguf",
    sizeBytes: 3 * 2 ** 30,
    removed: false,
    refused: "",
  };

  it("lists what could be freed and how to free it", () => {
    const text = reclaimText({
      collect: false,
      nodes: [{ node: "a", entries: [entry], bytesFreed: 0, error: null }],
    });
    expect(text).toMatch(/^a\s+ab12\s+https:\/\/x\/m\.gguf\s+3\.0 GiB\s+unused$/m);
    expect(text).toMatch(/3\.0 GiB could be freed; run `llmgw ctl reclaim --collect`/);
  });

  it("reports removals, refusals and nodes that did not answer", () => {
    const text = reclaimText({
      collect: true,
      nodes: [
        {
          node: "a",
          entries: [
            { ...entry, removed: true },
            { ...entry, cacheName: "evil", refused: "path escapes the cache" },
          ],
          bytesFreed: 3 * 2 ** 30,
          error: null,
        },
        { node: "b", entries: [], bytesFreed: 0, error: "agent did not answer in 10 s" },
      ],
    });
    expect(text).toMatch(/ab12.*removed$/m);
    expect(text).toMatch(/evil.*refused: path escapes the cache$/m);
    expect(text).toMatch(/^freed 3\.0 GiB$/m);
    expect(text).toMatch(/^ {2}b: agent did not answer in 10 s$/m);
  });
});
