import { describe, expect, it } from "vitest";
import {
  DEFAULT_RECONCILE_POLICY,
  parseModelDefinition,
  type DesiredModel,
  type ObservedReplica,
} from "@llmgw/domain";
import type { EventKind, EventParams } from "@llmgw/api";
import { Autoscaler } from "./autoscaler";
import { LOAD_READING_STALE_MS, ReplicaLoadBook } from "./replica-load";

function desired(max: number): DesiredModel {
  const parsed = parseModelDefinition({
    name: "chat",
    source: "org/chat",
    profiles: [{ name: "p", engine: "sim" }],
    replicas: { min: 1, max },
    autoscale: { up_after_ms: 2_000, down_after_ms: 6_000 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return { definition: parsed.model, revision: 1 };
}

function replica(id: string, phase: ObservedReplica["phase"]): ObservedReplica {
  return {
    ...{ id, model: "chat", profile: "p", modelRevision: 1, nodeId: "n1", gpuIndexes: [] },
    ...{ phase, message: "", createdAtMs: 0 },
  };
}

function setup() {
  const recorded: { kind: EventKind; params: EventParams }[] = [];
  const deps = {
    policy: DEFAULT_RECONCILE_POLICY,
    startedAtMs: 0,
    events: {
      record: (kind: EventKind, _subject: string, params: EventParams) =>
        recorded.push({ kind, params }),
    },
    log: () => {},
  };
  const load = new ReplicaLoadBook();
  return { deps, load, recorded, scaler: new Autoscaler(deps, load) };
}

describe("ReplicaLoadBook", () => {
  it("sums what the ready replicas told and keeps a failed, missing or stale reading unknown", () => {
    const load = new ReplicaLoadBook();
    expect(load.loadOf(["a", "b"], 0)).toEqual({ waiting: null, running: null, ready: 2 });
    load.record("a", { waiting: 3, running: 8 }, 0);
    load.record("b", { waiting: 2, running: null }, 0);
    expect(load.loadOf(["a", "b"], 1_000)).toEqual({ waiting: 5, running: 8, ready: 2 });
    load.record("b", null, 2_000);
    expect(load.loadOf(["a", "b"], 2_000)).toEqual({ waiting: 3, running: 8, ready: 2 });
    expect(load.loadOf(["a"], LOAD_READING_STALE_MS + 1)).toEqual({
      ...{ waiting: null, running: null, ready: 1 },
    });
    load.keepOnly(new Set());
    expect(load.loadOf(["a"], 0).waiting).toBeNull();
  });
});

describe("Autoscaler", () => {
  it("adds a replica after up_after of queue, records it with its load, and keeps it only once committed", () => {
    const { load, recorded, scaler } = setup();
    const replicas = [replica("a", "ready")];
    load.record("a", { waiting: 4, running: 8 }, 0);
    scaler.commit(scaler.decide([desired(3)], ["chat"], replicas, 0), new Set(["chat"]));
    load.record("a", { waiting: 4, running: 8 }, 2_000);
    const pass = scaler.decide([desired(3)], ["chat"], replicas, 2_000);
    expect(pass.decisions.get("chat")?.step).toBe("up");
    expect(scaler.added("chat")).toBe(0);
    scaler.commit(pass, new Set(["chat"]));
    expect(scaler.added("chat")).toBe(1);
    expect(recorded).toEqual([
      {
        kind: "model.scaled-up",
        params: { model: "chat", from: 1, to: 2, waiting: 4, running: 8, ready: 1 },
      },
    ]);
  });

  it("does not add while the added replica still starts, and starts from the base after a takeover", () => {
    const { deps, load, scaler } = setup();
    load.record("a", { waiting: 9, running: 8 }, 0);
    scaler.commit(
      scaler.decide([desired(3)], ["chat"], [replica("a", "ready")], 0),
      new Set(["chat"]),
    );
    const starting = [replica("a", "ready"), replica("b", "starting")];
    load.record("a", { waiting: 9, running: 8 }, 5_000);
    const held = scaler.decide([desired(3)], ["chat"], starting, 5_000).decisions.get("chat");
    expect(held).toMatchObject({ step: "hold", reason: "a replica is still placing or starting" });
    scaler.commit(
      scaler.decide([desired(3)], ["chat"], [replica("a", "ready")], 5_000),
      new Set(["chat"]),
    );
    expect(scaler.added("chat")).toBe(1);
    deps.startedAtMs = 9_000;
    scaler.decide([desired(3)], ["chat"], [replica("a", "ready")], 9_000);
    expect(scaler.added("chat")).toBe(0);
  });

  it("after a takeover takes the replicas it finds above the base as added, so none stops at once", () => {
    const { deps, scaler } = setup();
    deps.startedAtMs = 5_000;
    const found = [replica("a", "ready"), replica("b", "ready"), replica("c", "starting")];
    found.push(replica("d", "stopped"));
    const pass = scaler.decide([desired(3)], ["chat"], found, 5_000);
    expect(pass.decisions.get("chat")).toMatchObject({ step: "hold", from: 3, to: 3 });
    scaler.commit(pass, new Set(["chat"]));
    expect(scaler.added("chat")).toBe(2);
  });

  it("leaves a model alone whose max is its min, and forgets a removed model", () => {
    const { load, scaler } = setup();
    load.record("a", { waiting: 9, running: 8 }, 0);
    expect(scaler.decide([desired(1)], ["chat"], [replica("a", "ready")], 0).decisions.size).toBe(
      0,
    );
    scaler.commit(
      scaler.decide([desired(3)], ["chat"], [replica("a", "ready")], 0),
      new Set(["chat"]),
    );
    load.record("a", { waiting: 9, running: 8 }, 3_000);
    scaler.commit(
      scaler.decide([desired(3)], ["chat"], [replica("a", "ready")], 3_000),
      new Set(["chat"]),
    );
    expect(scaler.added("chat")).toBe(1);
    scaler.commit({ decisions: new Map() }, new Set());
    expect(scaler.added("chat")).toBe(0);
  });
});
