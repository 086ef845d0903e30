// A node is acknowledged before its batched registration is written: on a real PGlite store the
// API knows a live node at once from what it registered with, shows the same inventory once it
// is written, and still does not know a node that is neither stored nor connected.
import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "@llmgw/api";
import { openStore, type Store } from "@llmgw/db";
import { DEFAULT_LIVENESS } from "@llmgw/domain";
import { RegisterSchema } from "@llmgw/proto";
import { tempDir } from "@llmgw/testing";
import { createInventoryWriter } from "./inventory";
import { createNodesService } from "./nodes-service";
import { FleetRegistry } from "./registry";
import { storedNodeRows, type StoredNodeRows } from "./stored-node-rows";

const NOW = Date.parse("2030-06-01T00:00:00Z");
const register = (nodeId: string) =>
  create(RegisterSchema, {
    nodeId,
    nodeName: `${nodeId}.lab`,
    agentVersion: "2.0.0",
    engines: ["sim"],
    hardware: {
      cpu: { model: "EPYC", cores: 64 },
      memoryBytesTotal: 1024n,
      os: "linux",
      arch: "x86_64",
      gpus: [0, 1].map((index) => ({
        uuid: `GPU-${nodeId}-${index}`,
        index,
        name: "H100",
        memoryBytesTotal: 80n,
      })),
    },
  });

describe("nodes.get and nodes.list for a node acknowledged before its registration is written", () => {
  let store: Store;
  const registry = new FleetRegistry();
  let service: ReturnType<typeof createNodesService>;
  let stored: StoredNodeRows;

  beforeAll(async () => {
    store = await openStore({ kind: "pglite", dataDir: (await tempDir("nodes-service")).path });
    stored = storedNodeRows(store.db, () => NOW);
    service = createNodesService(store.db, stored, registry, DEFAULT_LIVENESS, () => NOW);
  });
  afterAll(async () => store?.close());

  it("knows a live node at once, by id and by name, and shows the same inventory once written", async () => {
    const node = register("node-a");
    registry.connect(node, 1, NOW);
    const before = await service.get("node-a");
    expect(before).toMatchObject({ id: "node-a", name: "node-a.lab", cpu: { cores: 64 } });
    expect(before.gpus.map((gpu) => gpu.uuid)).toEqual(["GPU-node-a-0", "GPU-node-a-1"]);
    expect((await service.get("node-a.lab")).id).toBe("node-a");
    expect((await service.list()).map((view) => view.id)).toEqual(["node-a"]);
    // The console's light lists read the rows kept in memory, and know the node as well.
    expect((await service.summaries()).map((summary) => summary.id)).toEqual(["node-a"]);
    const cards = await service.cards();
    expect(cards.nodes.map((entry) => [entry.id, entry.cardCount])).toEqual([["node-a", 2]]);
    expect(cards.cards.index).toEqual([0, 1]);

    const writer = createInventoryWriter(
      store.db,
      registry,
      () => NOW,
      () => undefined,
      stored,
    );
    await writer.registered(node);
    const after = await service.get("node-a");
    const { firstSeenAt: _a, lastSeenAt: _b, ...same } = before;
    expect(after).toMatchObject(same);
    expect((await service.list()).map((view) => view.id)).toEqual(["node-a"]);
  });

  it("does not know a node that is neither stored nor connected", async () => {
    registry.connect(register("node-b"), 2, NOW);
    registry.disconnect("node-b", 2, NOW);
    await expect(service.get("node-b")).rejects.toBeInstanceOf(ServiceError);
    expect((await service.list()).map((view) => view.id)).toEqual(["node-a"]);
  });
});
