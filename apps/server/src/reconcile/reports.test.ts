import { create } from "@bufbuild/protobuf";
import { ReplicaPhase, ReplicaStatusSchema, type ReplicaStatus } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import type { ReplicaRecord } from "./replica-book";
import {
  applyReports,
  onNodeRegistered,
  type ReportDecision,
  type ReportDeps,
  type ReportSink,
} from "./reports";

function record(id: string, change: Partial<ReplicaRecord>): ReplicaRecord {
  return {
    ...{ id, model: "m", profile: "p", modelRevision: 1, nodeId: "n1", gpuIndexes: [0] },
    ...{ phase: "ready", message: "", createdAtMs: 0, engine: "sim", host: null, port: null },
    ...{ fetchProgress: null, phaseChangedAtMs: 0, lastUsedAtMs: null, isLostStopped: false },
    lastSentMs: 0,
    ...change,
  };
}

/** A book of the given records, a clock at `nowMs`, and a sink that keeps what it is handed. */
function setup(records: ReplicaRecord[], nowMs: number) {
  const byId = new Map(records.map((r) => [r.id, r]));
  const deps: ReportDeps = {
    book: {
      get: (id) => byId.get(id),
      onNode: (nodeId) =>
        [...byId.values()].filter(
          (r) => r.nodeId === nodeId || (r.shards ?? []).some((s) => s.nodeId === nodeId),
        ),
      update: async (id, change) => {
        Object.assign(byId.get(id) ?? {}, change);
      },
      updateShard: async (id, rank, change) => {
        Object.assign(byId.get(id)?.shards?.find((s) => s.rank === rank) ?? {}, change);
      },
    },
    registry: { get: () => undefined },
    events: { record: (kind, subject) => events.push(`${kind} ${subject}`) },
    nowMs: () => nowMs,
    log: () => undefined,
  };
  const decisions: ReportDecision[] = [];
  const dirty: string[] = [];
  const events: string[] = [];
  const sink: ReportSink = {
    markDirty: (model) => dirty.push(model),
    carryOut: (decision) => decisions.push(decision),
  };
  return { deps, sink, decisions, dirty, events };
}

const running = (replicaId: string) =>
  create(ReplicaStatusSchema, { replicaId, phase: ReplicaPhase.READY });

describe("agent reports", () => {
  it("hand a stop for a running replica the control plane does not know", async () => {
    const { deps, sink, decisions } = setup([], 10_000);
    await applyReports(deps, sink, "n1", [running("stray")], "heartbeat");
    expect(decisions).toEqual([
      { kind: "stop", nodeId: "n1", replicaId: "stray", reason: "unknown to the control plane" },
    ]);
  });

  it("hand a stop again for a stopped replica still running, paced by the last frame", async () => {
    const stopped = record("r1", { phase: "stopped", message: "scaled down", lastSentMs: 8_000 });
    const early = setup([stopped], 10_000);
    await applyReports(early.deps, early.sink, "n1", [running("r1")], "heartbeat");
    expect(early.decisions).toEqual([]);
    const late = setup([stopped], 13_000);
    await applyReports(late.deps, late.sink, "n1", [running("r1")], "heartbeat");
    expect(late.decisions).toEqual([
      { kind: "stop", nodeId: "n1", replicaId: "r1", reason: "scaled down" },
    ]);
  });

  it("hand a start again for a placed replica the heartbeat does not list", async () => {
    const placing = record("r2", { phase: "placing", lastSentMs: 0 });
    const { deps, sink, decisions } = setup([placing], 10_000);
    await applyReports(deps, sink, "n1", [], "heartbeat");
    expect(decisions).toEqual([{ kind: "resend-start", replicaId: "r2", nodeId: "n1" }]);
  });

  it("ask for the node's desired list after a Register and mark its models dirty", async () => {
    const { deps, sink, decisions, dirty } = setup([record("r3", { model: "q" })], 10_000);
    await onNodeRegistered(deps, sink, "n1", []);
    expect(decisions).toEqual([{ kind: "send-desired", nodeId: "n1" }]);
    expect(dirty).toEqual(["q"]);
  });
});

/** A replica spanning n1 (leader) and n2 (worker), both still placing. */
function spanning(change: Partial<ReplicaRecord> = {}): ReplicaRecord {
  const shard = (rank: number, nodeId: string) => ({
    rank,
    nodeId,
    gpuIndexes: [0, 1],
    phase: "placing" as const,
    message: "",
    phaseChangedAtMs: 0,
    lastSentMs: 0,
  });
  return record("big", {
    phase: "placing",
    shards: [shard(0, "n1"), shard(1, "n2")],
    leaderAddress: null,
    ...change,
  });
}

const shardStatus = (
  phase: ReplicaPhase,
  more: Partial<Pick<ReplicaStatus, "host" | "port" | "message" | "leaderAddress">> = {},
) => create(ReplicaStatusSchema, { replicaId: "big", phase, ...more });

describe("reports from the shards of a replica spanning nodes", () => {
  it("make it ready only when every shard is, with the leader's address for routing", async () => {
    const big = spanning();
    const { deps, sink, events } = setup([big], 10_000);
    const leaderReady = shardStatus(ReplicaPhase.READY, { host: "10.0.0.1", port: 8001 });
    await applyReports(deps, sink, "n1", [leaderReady], "status");
    expect(big.phase).toBe("placing");
    await applyReports(deps, sink, "n2", [shardStatus(ReplicaPhase.STARTING)], "status");
    expect(big.phase).toBe("starting");
    await applyReports(deps, sink, "n2", [shardStatus(ReplicaPhase.READY, { port: 9 })], "status");
    expect(big.phase).toBe("ready");
    expect([big.host, big.port]).toEqual(["10.0.0.1", 8001]);
    expect(events).toEqual(["replica.started big"]);
  });

  it("start the workers once the leader reports where to join it", async () => {
    const big = spanning();
    const { deps, sink, decisions } = setup([big], 10_000);
    await applyReports(deps, sink, "n2", [], "heartbeat");
    expect(decisions).toEqual([]);
    const starting = shardStatus(ReplicaPhase.STARTING, { leaderAddress: "10.0.0.1:29500" });
    await applyReports(deps, sink, "n1", [starting], "status");
    expect(big.leaderAddress).toBe("10.0.0.1:29500");
    expect(decisions).toEqual([{ kind: "resend-start", replicaId: "big" }]);
    await applyReports(deps, sink, "n2", [], "heartbeat");
    expect(decisions.at(-1)).toEqual({ kind: "resend-start", replicaId: "big", nodeId: "n2" });
  });

  it("fail it as a whole when a worker fails, naming the worker", async () => {
    const big = spanning();
    const { deps, sink, events } = setup([big], 10_000);
    await applyReports(deps, sink, "n1", [shardStatus(ReplicaPhase.READY)], "status");
    const failed = shardStatus(ReplicaPhase.FAILED, { message: "exit 1: NCCL error" });
    await applyReports(deps, sink, "n2", [failed], "status");
    expect(big.phase).toBe("failed");
    expect(big.message).toBe("shard rank 1 on node n2 failed: exit 1: NCCL error");
    expect(events).toEqual(["replica.failed big"]);
  });

  it("stop, never adopt, a shard whose node returns after the replica was given up", async () => {
    const lost = spanning({ phase: "stopped", isLostStopped: true, message: "node n2 was lost" });
    const { deps, sink, decisions } = setup([lost], 10_000);
    await applyReports(deps, sink, "n1", [shardStatus(ReplicaPhase.READY)], "register");
    expect(lost.phase).toBe("stopped");
    expect(decisions).toEqual([
      { kind: "stop", nodeId: "n1", replicaId: "big", reason: "node n2 was lost" },
    ]);
  });
});
