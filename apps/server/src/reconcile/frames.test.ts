// The frames a replica spanning nodes gets: its leader first, its workers once the leader said
// where to join, each shard at its own rank in a node's desired list, and a stop on every node.
import { parseModelDefinition, type ModelDefinition } from "@llmgw/domain";
import type { EnvelopeInit } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import type { ReconcileDeps } from "./deps";
import { carryOutReport, sendStart, sendStop } from "./frames";
import { SourceDescriptions } from "../fleet/source-descriptions";
import type { ReplicaRecord } from "./replica-book";

function definition(): ModelDefinition {
  const parsed = parseModelDefinition({
    name: "big",
    source: "org/big",
    profiles: [{ name: "x2", engine: "vllm", gpu: "H100-80G", gpus: 2, nodes: 2 }],
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.model;
}

function spanning(): ReplicaRecord {
  const shard = (rank: number, nodeId: string) => ({
    ...{ rank, nodeId, gpuIndexes: [0, 1], phase: "placing" as const, message: "" },
    ...{ phaseChangedAtMs: 0, lastSentMs: 0 },
  });
  return {
    ...{ id: "big-1", model: "big", profile: "x2", modelRevision: 1, nodeId: "n1" },
    ...{ gpuIndexes: [0, 1], phase: "placing", message: "", createdAtMs: 0, engine: "vllm" },
    ...{ host: null, port: null, fetchProgress: null, phaseChangedAtMs: 0, lastUsedAtMs: null },
    ...{ isLostStopped: false, lastSentMs: 0, leaderAddress: null },
    shards: [shard(0, "n1"), shard(1, "n2")],
  };
}

function setup(record: ReplicaRecord) {
  const sent: Array<{ nodeId: string; init: EnvelopeInit }> = [];
  const model = definition();
  const onNode = (nodeId: string) =>
    record.nodeId === nodeId || record.shards?.some((s) => s.nodeId === nodeId) ? [record] : [];
  const deps = {
    book: { get: (id: string) => (id === record.id ? record : undefined), onNode },
    // No agent reported the source's config.json: the replica is started as asked.
    registry: { sources: new SourceDescriptions(), get: () => undefined },
    catalog: { current: () => ({ get: (name: string) => (name === "big" ? model : undefined) }) },
    links: { send: (nodeId: string, init: EnvelopeInit) => sent.push({ nodeId, init }) > 0 },
    replicaSecret: new Uint8Array(32).fill(1),
    startTimeoutMs: 60_000,
    nowMs: () => 5_000,
  } as unknown as ReconcileDeps;
  return { deps, sent };
}

const starts = (sent: ReturnType<typeof setup>["sent"]) =>
  sent.flatMap(({ nodeId, init }) =>
    init.msg?.case === "startReplica"
      ? [{ nodeId, rank: init.msg.value.nodeRank, leader: init.msg.value.leaderAddress }]
      : [],
  );

describe("frames for a replica spanning nodes", () => {
  it("starts the leader alone until it reported where to join, then the worker with that address", () => {
    const record = spanning();
    const { deps, sent } = setup(record);
    sendStart(deps, record.id);
    expect(starts(sent)).toEqual([{ nodeId: "n1", rank: 0, leader: "" }]);
    record.leaderAddress = "10.0.0.1:29500";
    sent.length = 0;
    carryOutReport(deps, { kind: "resend-start", replicaId: record.id, nodeId: "n2" });
    expect(starts(sent)).toEqual([{ nodeId: "n2", rank: 1, leader: "10.0.0.1:29500" }]);
    expect(record.shards?.[1]?.lastSentMs).toBe(5_000);
  });

  it("lists a node's own shard at its rank in the desired list after it registers", () => {
    const record = spanning();
    record.leaderAddress = "10.0.0.1:29500";
    const { deps, sent } = setup(record);
    carryOutReport(deps, { kind: "send-desired", nodeId: "n2" });
    const desired = sent[0]?.init.msg;
    expect(sent[0]?.nodeId).toBe("n2");
    expect(desired?.case === "desiredReplicas" && desired.value.replicas).toMatchObject([
      { replicaId: "big-1", nodeRank: 1, nodeCount: 2, leaderAddress: "10.0.0.1:29500" },
    ]);
  });

  it("stops every shard, whichever node the stop named", () => {
    const record = spanning();
    const { deps, sent } = setup(record);
    sendStop(deps, "n2", record.id, "node n2 was lost");
    expect(sent.map((s) => [s.nodeId, s.init.msg?.case])).toEqual([
      ["n2", "stopReplica"],
      ["n1", "stopReplica"],
    ]);
  });
});
