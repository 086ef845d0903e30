// The reconciler's node records kept between passes, as it plans with them: `reconcileNodes` over
// the live registry, kept by `KeptNodes`, planned by `planReconcile` with one `createPlanCache`.
// Heartbeats that change only free disk and measured draw must not cost a rebuilt placement
// index; a change placement counted (a node coming back with fewer cards) must rebuild it, and
// the plan must then be what planning from scratch decides.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_LIVENESS,
  DEFAULT_RECONCILE_POLICY,
  createPlanCache,
  parseModelDefinition,
  planReconcile,
  type ObservedReplica,
  type ReconcileAction,
  type ReconcileInput,
  type ReconcileNode,
} from "@llmgw/domain";
import { create, HeartbeatSchema, RegisterSchema } from "@llmgw/proto";
import { KeptNodes } from "./kept-nodes";
import { reconcileNodes } from "./placement-nodes";
import { FleetRegistry } from "./registry";

const NODES = ["a", "b", "c"];

function register(
  registry: FleetRegistry,
  id: string,
  cards: number,
  sessionId: number,
  nowMs: number,
) {
  const register = create(RegisterSchema, {
    nodeId: id,
    nodeName: id,
    hardware: {
      memoryBytesTotal: 512_000_000_000n,
      diskBytesFree: 2_000_000_000_000n,
      cpu: { cores: 64 },
      gpus: Array.from({ length: cards }, (_, index) => ({
        index,
        uuid: `${id}-GPU-${index}`,
        name: "NVIDIA H100 80GB HBM3",
        memoryBytesTotal: 80_000_000_000n,
        computeCapability: "9.0",
        powerLimitWatts: 700,
      })),
    },
  });
  registry.connect(register, sessionId, nowMs);
}

/** Every node's heartbeat: free disk and each card's measured draw, nothing placement indexes. */
function beat(registry: FleetRegistry, nowMs: number, seed: number) {
  NODES.forEach((id, sessionId) => {
    const heartbeat = create(HeartbeatSchema, {
      diskBytesFree: BigInt(1_000_000_000_000 + seed * 7_000_000 + sessionId),
      sentAtMs: BigInt(nowMs),
      gpus: Array.from(
        { length: registry.get(id)?.register.hardware?.gpus.length ?? 0 },
        (_, index) => ({
          uuid: `${id}-GPU-${index}`,
          powerWatts: 300 + seed * 10 + index,
        }),
      ),
    });
    registry.heartbeat(id, registry.get(id)?.sessionId ?? sessionId, heartbeat, nowMs);
  });
}

function model(min: number) {
  const parsed = parseModelDefinition({
    name: "big",
    source: "org/big",
    profiles: [{ name: "h100x8", engine: "vllm", gpu: "H100-80G", gpus: 8 }],
    replicas: { min, max: min },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return { definition: parsed.model, revision: 1 };
}

describe("node records kept between reconciler passes", () => {
  const registry = new FleetRegistry();
  NODES.forEach((id, sessionId) => register(registry, id, 8, sessionId, 0));
  const kept = new KeptNodes();
  const cache = createPlanCache();
  const replicas: ObservedReplica[] = [];
  let next = 0;
  let nodes: ReconcileNode[] = [];

  /** One pass as the reconciler makes it; the placements are recorded as the book would. */
  function pass(nowMs: number, min: number) {
    nodes = kept.keep(reconcileNodes(registry, [], nowMs, DEFAULT_LIVENESS, 0, undefined, kept));
    const input = (): ReconcileInput => {
      let id = next;
      return {
        models: [model(min)],
        health: [],
        replicas: [...replicas],
        nodes,
        nowMs,
        policy: DEFAULT_RECONCILE_POLICY,
        newReplicaId: (name) => `${name}-r${(id += 1)}`,
      };
    };
    const fresh = planReconcile(input()).actions;
    const actions = planReconcile({ ...input(), cache }).actions;
    expect(actions).toEqual(fresh);
    for (const action of actions) {
      if (action.kind !== "place") continue;
      next += 1;
      const shard = action.shards[0] as { nodeId: string; cardIndexes: readonly number[] };
      replicas.push({
        id: action.replicaId,
        model: action.model,
        profile: action.profile,
        modelRevision: action.revision,
        nodeId: shard.nodeId,
        gpuIndexes: shard.cardIndexes,
        phase: "ready",
        message: "",
        createdAtMs: nowMs,
      });
    }
    return actions;
  }
  const placedOn = (actions: readonly ReconcileAction[]) =>
    actions.flatMap((a) => (a.kind === "place" ? [a.shards.map((s) => s.nodeId).join()] : []));

  it("reuses the placement index over heartbeats that change only disk and draw", () => {
    beat(registry, 1_000, 1);
    expect(placedOn(pass(1_500, 2))).toHaveLength(2);
    expect(cache.fleet).toMatchObject({ built: 1, reused: 0 });
    const first = nodes;

    // Nothing new since: every record is last pass's object.
    pass(1_800, 2);
    nodes.forEach((node, at) => expect(node).toBe(first[at]));

    beat(registry, 3_000, 2);
    const settled = pass(3_500, 2);
    expect(settled.filter((a) => a.kind === "place")).toEqual([]);
    // New records: the disk and the draw changed.
    expect(nodes[0]).not.toBe(first[0]);
    expect(nodes[0]?.node.diskGbFree).not.toBe(first[0]?.node.diskGbFree);

    // A third replica goes to the one node left, over the kept index: the new records are taken
    // into it, nothing is rebuilt.
    beat(registry, 5_000, 3);
    const third = placedOn(pass(5_500, 3));
    const used = new Set(replicas.slice(0, 2).map((r) => r.nodeId));
    expect(third).toEqual(NODES.filter((id) => !used.has(id)));
    expect(cache.fleet).toMatchObject({ built: 1, reused: 1, refreshed: NODES.length });
    expect(cache.fleet.fleet?.nodes.map((usage) => usage.node)).toEqual(nodes.map((n) => n.node));
  });

  it("rebuilds the index when a node comes back with fewer cards, and plans on what it has", () => {
    const before = cache.fleet.built;
    // The model's third replica is gone, and its node comes back with 4 cards only.
    replicas.splice(2);
    const spare = NODES.find((id) => !replicas.some((r) => r.nodeId === id)) ?? "";
    register(registry, spare, 4, 10, 6_000);
    beat(registry, 6_500, 4);
    const actions = pass(7_000, 3);
    expect(cache.fleet.built).toBe(before + 1);
    // Eight cards on one node fit nowhere: the stale index would have placed it on `spare`.
    expect(placedOn(actions)).toEqual([]);
    expect(actions.map((a) => a.kind)).toContain("unplaceable");
  });
});

describe("a node's record made again only when what it is made from changed", () => {
  const registry = new FleetRegistry();
  register(registry, "a", 2, 1, 0);
  const kept = new KeptNodes();
  const recordNow = (nowMs: number) => {
    const [record] = kept.keep(
      reconcileNodes(registry, [], nowMs, DEFAULT_LIVENESS, 0, undefined, kept),
    );
    if (!record) throw new Error("no record for node a");
    return record.node;
  };
  const heartbeat = (nowMs: number, diskBytesFree: bigint, powerWatts: number) =>
    registry.heartbeat(
      "a",
      registry.get("a")?.sessionId ?? 0,
      create(HeartbeatSchema, {
        diskBytesFree,
        sentAtMs: BigInt(nowMs),
        gpus: [0, 1].map((index) => ({ uuid: `a-GPU-${index}`, powerWatts })),
      }),
      nowMs,
    );

  it("keeps it while nothing changed, and makes it again after a heartbeat, an overlay change, a lapse and a new session", () => {
    heartbeat(1_000, 900_000_000_000n, 300);
    const first = recordNow(1_100);
    expect(recordNow(1_200)).toBe(first);
    expect(kept.unchanged).toBe(1);

    // The same free disk, a new measured draw above the cards' 700 W limit: a heartbeat whose
    // only news is the draw must still be read.
    heartbeat(2_000, 900_000_000_000n, 760);
    const drawn = recordNow(2_100);
    expect(drawn).not.toBe(first);
    expect(drawn.cards.map((card) => card.drawWatts)).toEqual([760, 760]);
    heartbeat(3_000, 800_000_000_000n, 760);
    const emptier = recordNow(3_100);
    expect(emptier.diskGbFree).toBe(800);
    expect(recordNow(3_200)).toBe(emptier);

    registry.facility.setCordon("a", "cordoned");
    const cordoned = recordNow(3_300);
    expect(cordoned.hold).toMatch(/is cordoned/);
    registry.facility.setLabels("a", { "llmgw.io/rack": "r9" });
    expect(recordNow(3_400).labels).toMatchObject({ "llmgw.io/rack": "r9" });

    // No heartbeat for long enough: time alone makes it unreachable.
    const silentMs =
      DEFAULT_LIVENESS.heartbeatIntervalMs * (DEFAULT_LIVENESS.missedHeartbeatsMax + 2);
    const lapsed = recordNow(3_000 + silentMs);
    expect(lapsed.isReachable).toBe(false);

    // A new session of the same node (one card fewer) is a new record at once.
    register(registry, "a", 1, 2, 60_000);
    heartbeat(60_000, 800_000_000_000n, 760);
    expect(recordNow(60_100).cards).toHaveLength(1);
    expect(kept.unchanged).toBe(2);
  });
});
