// Two simulated shards of one replica spanning nodes, started as real processes from the sim
// adapter's command lines (vLLM's multi-node flags): the leader is not ready until its worker
// joined, the worker serves nothing but /health, and losing the worker ends the leader.
import { afterEach, describe, expect, it } from "vitest";
import { createSimAdapter, type ReplicaLaunch } from "@llmgw/engines";
import { freePort, spawnProcess, waitFor, type SpawnedProcess } from "@llmgw/testing";
import { KEY, SIM_BIN } from "./helpers";

const started: SpawnedProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((proc) => proc.stop()));
});

async function startShard(rank: number, port: number, masterPort: number): Promise<SpawnedProcess> {
  const adapter = createSimAdapter({ command: process.execPath, prefixArgs: [SIM_BIN] });
  const launch: ReplicaLaunch = {
    ...{ replicaId: "big-1", model: "/w/llama", servedModelName: "llama", host: "127.0.0.1" },
    ...{ port, gpus: ["0", "1"], tensorParallel: 2, apiKey: KEY },
    multiNode: { nodeRank: rank, nodeCount: 2, leaderHost: "127.0.0.1", leaderPort: masterPort },
  };
  const command = adapter.buildCommand(launch);
  const proc = spawnProcess(command.command, [...command.args, "--ready-after-ms", "0"], {
    name: `sim-shard-${rank}`,
    env: { ...command.env, VLLM_API_KEY: undefined },
  });
  started.push(proc);
  await proc.waitForOutput(/listening on/, 20_000);
  return proc;
}

const status = async (port: number, path: string) =>
  (await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${KEY}` } }))
    .status;

describe("a simulated replica spanning two nodes", () => {
  it("is ready only once the worker joined, and only the leader serves the API", async () => {
    const [leaderPort, workerPort, masterPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const leader = await startShard(0, leaderPort, masterPort);
    expect(leader.output()).toMatch(/simulated shard rank 0 of 2 nodes/);
    expect(await status(leaderPort, "/health")).toBe(503);
    await startShard(1, workerPort, masterPort);
    await waitFor(async () => (await status(leaderPort, "/health")) === 200, {
      what: "leader ready after its worker joined",
      timeoutMs: 15_000,
    });
    expect(await status(workerPort, "/health")).toBe(200);
    expect(await status(leaderPort, "/v1/models")).toBe(200);
    const refused = await fetch(`http://127.0.0.1:${workerPort}/v1/models`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain("worker shard rank 1");
  });

  it("ends the leader with status 1 when its worker goes away, as a broken collective would", async () => {
    const [leaderPort, workerPort, masterPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const leader = await startShard(0, leaderPort, masterPort);
    const worker = await startShard(1, workerPort, masterPort);
    await leader.waitForOutput(/worker shard rank 1 joined/, 15_000);
    worker.kill("SIGKILL");
    const exit = await leader.exited;
    expect(exit.code).toBe(1);
    expect(leader.output()).toMatch(/worker shard rank 1 left the group/);
  });

  it("refuses a shard without its leader's port, before anything listens", async () => {
    const proc = spawnProcess(
      process.execPath,
      [SIM_BIN, ...["--nnodes", "2", "--node-rank", "1", "--master-addr", "127.0.0.1"]],
      { name: "sim-bad-shard" },
    );
    started.push(proc);
    expect((await proc.exited).code).toBe(2);
    expect(proc.output()).toMatch(/needs --node-rank, --master-addr and --master-port/);
  });
});
