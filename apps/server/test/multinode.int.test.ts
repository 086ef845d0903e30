// A replica spanning nodes end to end: a real server, real agents with simulated cards and real
// sim-engine processes standing in for vLLM, which meet at the leader shard's rendezvous as vLLM's
// ranks do. The two-node replica starts on both nodes (the worker with rank 1 and the leader's
// address), is ready only when both shards are, is served through its leader, and is given up
// and rebuilt as a whole when one node dies (waiting while no two nodes are left).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReplicaView } from "@llmgw/api";
import { waitFor } from "@llmgw/testing";
import { simWeightsSource, startFleet, type Api, type Fleet } from "./harness";

const LOST_AFTER_MS = 2_000;
const SHORT_TIMINGS = {
  LLMGW_LOST_AFTER_MS: String(LOST_AFTER_MS),
  LLMGW_RESYNC_INTERVAL_MS: "300",
  LLMGW_START_TIMEOUT_MS: "20000",
  LLMGW_RESTART_GRACE_MS: "20000",
};
const MODEL = "big-vllm";

function twoNodeModel(source: string) {
  return {
    name: MODEL,
    source,
    profiles: [
      {
        name: "two-nodes",
        engine: "vllm" as const,
        gpu: { min_compute_capability: 7.0, min_memory_gb: 16 },
        gpus: 2,
        nodes: 2,
        tensor_parallel: 2,
      },
    ],
    replicas: { min: 1, max: 1 },
  };
}

async function active(api: Api): Promise<ReplicaView[]> {
  return (await api.replicas.list.query({ model: MODEL })).filter((r) => r.phase !== "stopped");
}

/** Polls until a ready replica exists, checking at every look that none is ready before its shards. */
async function readyWatchingShards(api: Api, timeoutMs: number): Promise<ReplicaView> {
  return waitFor(
    async () => {
      for (const replica of await active(api)) {
        const shardsReady = replica.shards.every((shard) => shard.phase === "ready");
        if (replica.phase === "ready" && !shardsReady)
          throw new Error(`replica ${replica.id} is ready while a shard is not`);
        if (replica.phase === "ready") return replica;
      }
      return undefined;
    },
    { what: `a ready replica of ${MODEL}`, timeoutMs },
  );
}

describe("a replica spanning nodes", () => {
  let fleet: Fleet;
  let api: Api;
  let first: ReplicaView;

  beforeAll(async () => {
    const source = await simWeightsSource("it-mn-weights");
    fleet = await startFleet({
      env: SHORT_TIMINGS,
      agents: [
        { name: "mn-a", profile: "h100x8" },
        { name: "mn-b", profile: "h100x8" },
      ],
    });
    ({ api } = fleet);
    await waitFor(
      async () => (await api.nodes.list.query()).filter((n) => n.state === "ready").length === 2,
      { what: "two nodes ready", timeoutMs: 30_000 },
    );
    await api.models.add.mutate({ definition: twoNodeModel(source) });
  });

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  it("starts on both nodes, the worker with rank 1 and the leader's address, ready only when both are", async () => {
    first = await readyWatchingShards(api, 60_000);
    expect(first.shards.map((s) => s.rank)).toEqual([0, 1]);
    expect(first.shards.map((s) => s.nodeName).sort()).toEqual(["mn-a", "mn-b"]);
    expect(first.shards.every((s) => s.gpuIndexes.length === 2)).toBe(true);
    const [leader, worker] = first.shards;
    expect(first.nodeName).toBe(leader?.nodeName);

    const leaderLog = fleet.agent(leader?.nodeName ?? "").process.output();
    const workerLog = fleet.agent(worker?.nodeName ?? "").process.output();
    const leaderFlags = /--nnodes 2 --node-rank 0 --master-addr (\S+) --master-port (\d+)/.exec(
      leaderLog,
    );
    const workerFlags =
      /--nnodes 2 --node-rank 1 --master-addr (\S+) --master-port (\d+) --headless/.exec(workerLog);
    expect(leaderFlags).not.toBeNull();
    expect(workerFlags?.slice(1)).toEqual(leaderFlags?.slice(1));
    expect(leaderLog).not.toMatch(/--node-rank 0 [^"]*--headless/);
    expect(worker?.message).toMatch(/worker shard rank 1 of 2 .*serves no API/);

    // Listed on the worker's node too, as the node page and `ctl replicas --node` ask.
    const onWorker = await api.replicas.list.query({ node: worker?.nodeName ?? "" });
    expect(onWorker.map((r) => r.id)).toEqual([first.id]);

    // Both nodes' cards count as used, and neither node is free.
    const status = await api.status.get.query();
    expect(status.capacity.find((c) => c.gpuClass === "H100-80G")?.cardsUsed).toBe(4);
    expect(status.freeWholeNodes).toEqual([]);

    const metrics = await (await fetch(`${fleet.server.apiUrl}/metrics`)).text();
    for (const shard of first.shards) {
      expect(metrics).toContain(
        `llmgw_replica_shard_phase{replica="${first.id}",model="${MODEL}",rank="${shard.rank}",node="${shard.nodeName}",phase="ready"} 1`,
      );
      // Each shard's cards are assigned on its own node.
      expect(metrics).toContain(
        `llmgw_gpu_assigned{node="${shard.nodeName}",gpu="${shard.gpuIndexes[0]}",replica="${first.id}"`,
      );
    }
  });

  it("is served through its leader shard only", async () => {
    const key = (await api.keys.create.mutate({ owner: "team:ml", models: [MODEL] })).key;
    const answer = await fetch(`${fleet.v1}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { model: string }).model).toBe(MODEL);
    const leader = first.shards[0];
    const leaderLog = fleet.agent(leader?.nodeName ?? "").process.output();
    expect(first.endpoint).not.toBeNull();
    expect(leaderLog).toContain(`--port ${first.endpoint?.split(":").at(-1)}`);
  });

  it("is given up as a whole when the worker's node dies, waits with no two nodes, and is rebuilt", async () => {
    const survivor = first.shards[0]?.nodeName ?? "";
    const victim = first.shards[1]?.nodeName ?? "";
    fleet.agent(victim).process.kill("SIGKILL");
    await waitFor(
      async () =>
        (await api.replicas.list.query({ model: MODEL })).find((r) => r.id === first.id)?.phase ===
        "stopped",
      { what: `replica ${first.id} given up`, timeoutMs: LOST_AFTER_MS + 15_000 },
    );
    // No half replica keeps serving: the leader's engine is stopped too, and nothing is placed
    // while only one node is left.
    await waitFor(
      async () => {
        const health = await fetch(`http://${first.endpoint}/health`).catch(() => undefined);
        return health === undefined || !health.ok;
      },
      { what: "the leader shard's engine stopped", timeoutMs: 15_000 },
    );
    const waiting = await waitFor(
      async () => {
        const model = (await api.models.list.query()).find((m) => m.name === MODEL);
        return model?.state === "unplaceable" ? model : undefined;
      },
      { what: `${MODEL} waiting for a second node`, timeoutMs: 10_000 },
    );
    expect(waiting.replicasReady).toBe(0);
    expect(await active(api)).toEqual([]);

    await fleet.startAgent("mn-c", "h100x8");
    const rebuilt = await readyWatchingShards(api, 60_000);
    expect(rebuilt.id).not.toBe(first.id);
    expect(rebuilt.shards.map((s) => s.nodeName).sort()).toEqual([survivor, "mn-c"].sort());
  });
});
