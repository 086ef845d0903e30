// replicas.cards: the light replica list the heatmap's tooltips read, who may read it, and that it
// says which replica holds which card (every shard's node) and leaves out replicas holding none.
import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";
import { replicaCardsOf } from "./cards";
import type { ReplicaView } from "./schemas";

function replica(id: string, overrides: Partial<ReplicaView> = {}): ReplicaView {
  return {
    ...{ id, model: "chat", profile: "default", nodeId: "node-a", nodeName: "gpu-a" },
    ...{ gpuIndexes: [0], engine: "vllm", phase: "ready", message: "" },
    ...{ endpoint: "http://10.0.0.1:8000", phaseChangedAt: "2030-01-01T00:00:00.000Z" },
    ...{ lastUsedAt: null, fetchProgress: null, shards: [] },
    ...overrides,
  };
}

function shard(rank: number, nodeId: string, gpuIndexes: number[]) {
  return { rank, nodeId, nodeName: nodeId, gpuIndexes, phase: "ready" as const, message: "" };
}

describe("replicaCardsOf", () => {
  it("says which replica holds which card, names interned, every shard of a spanning replica", () => {
    const view = replicaCardsOf([
      replica("r1", { gpuIndexes: [0, 1] }),
      replica("r2", { model: "code", nodeId: "node-b", gpuIndexes: [3] }),
      replica("r3", {
        ...{ nodeId: "node-a", gpuIndexes: [2] },
        shards: [shard(0, "node-a", [2]), shard(1, "node-c", [0, 1])],
      }),
    ]);
    expect(view.models).toEqual(["chat", "code"]);
    expect(view.nodeIds).toEqual(["node-a", "node-b", "node-c"]);
    expect(view.replicas).toEqual([
      { id: "r1", model: 0, places: [{ node: 0, gpuIndexes: [0, 1] }] },
      { id: "r2", model: 1, places: [{ node: 1, gpuIndexes: [3] }] },
      {
        id: "r3",
        model: 0,
        places: [
          { node: 0, gpuIndexes: [2] },
          { node: 2, gpuIndexes: [0, 1] },
        ],
      },
    ]);
  });

  it("leaves out stopped and failed replicas, which hold no cards", () => {
    const view = replicaCardsOf([
      replica("gone", { phase: "stopped" }),
      replica("broken", { phase: "failed" }),
      replica("starting", { phase: "starting" }),
    ]);
    expect(view.replicas.map((r) => r.id)).toEqual(["starting"]);
  });

  it("is a small part of the full list at 4,000 replicas", () => {
    const replicas = Array.from({ length: 4_000 }, (_, i) =>
      replica(`replica-${String(i).padStart(5, "0")}-0123456789ab`, {
        model: `model-${i % 50}`,
        nodeId: `node-${String(i >> 1).padStart(5, "0")}-0123456789abcdef`,
        gpuIndexes: [(i % 2) * 4, (i % 2) * 4 + 1],
        message: "serving on the stand-in engine",
      }),
    );
    const light = JSON.stringify(replicaCardsOf(replicas)).length;
    expect(light).toBeLessThan(JSON.stringify(replicas).length / 3);
  });
});

describe("replicas.cards", () => {
  it("answers any signed-in person from the service's light list, and no one signed out", async () => {
    const ctx = fakeContext("viewer");
    const light = replicaCardsOf([replica("r1")]);
    ctx.services.replicas.cards.mockResolvedValueOnce(light);
    const view = await appRouter.createCaller(ctx).replicas.cards();
    // Not built from the full list: the server would build every replica's view to throw away.
    expect(ctx.services.replicas.list).not.toHaveBeenCalled();
    expect(view).toEqual({
      models: ["chat"],
      nodeIds: ["node-a"],
      replicas: [{ id: "r1", model: 0, places: [{ node: 0, gpuIndexes: [0] }] }],
    });
    expect((await caught(appRouter.createCaller(fakeContext(null)).replicas.cards())).code).toBe(
      "UNAUTHORIZED",
    );
  });
});
