import { create } from "@bufbuild/protobuf";
import { ReplicaPhase, ReplicaStatusSchema } from "@llmgw/proto";
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
      onNode: (nodeId) => [...byId.values()].filter((r) => r.nodeId === nodeId),
      update: async (id, change) => {
        Object.assign(byId.get(id) ?? {}, change);
      },
    },
    registry: { get: () => undefined },
    events: { record: () => undefined },
    nowMs: () => nowMs,
    log: () => undefined,
  };
  const decisions: ReportDecision[] = [];
  const dirty: string[] = [];
  const sink: ReportSink = {
    markDirty: (model) => dirty.push(model),
    carryOut: (decision) => decisions.push(decision),
  };
  return { deps, sink, decisions, dirty };
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
    expect(decisions).toEqual([{ kind: "resend-start", replicaId: "r2" }]);
  });

  it("ask for the node's desired list after a Register and mark its models dirty", async () => {
    const { deps, sink, decisions, dirty } = setup([record("r3", { model: "q" })], 10_000);
    await onNodeRegistered(deps, sink, "n1", []);
    expect(decisions).toEqual([{ kind: "send-desired", nodeId: "n1" }]);
    expect(dirty).toEqual(["q"]);
  });
});
