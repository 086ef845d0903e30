// The supervisor against the real `llmgw sim-engine` process: readiness with the key, the key kept
// out of argv and logs, stop reaching the whole process group, failures with their reasons, and
// adoption of a live engine by a new supervisor reading replicas.json.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { must } from "@llmgw/domain";
import { create, LoraAdapterSchema, ReplicaPhase } from "@llmgw/proto";
import { cacheName } from "../cache/layout";
import { waitFor } from "@llmgw/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  killStartedEngines,
  makeSupervisor,
  startSpec,
  TEST_KEY,
} from "../../test/replica-harness";
import { realProcessOps } from "./engine-process";

afterEach(killStartedEngines);

const phases = (statuses: { replicaId?: string; phase?: ReplicaPhase }[], id = "r-1") =>
  statuses
    .filter((status) => status.replicaId === id)
    .map((status) => ReplicaPhase[status.phase ?? 0]);

describe("ReplicaSupervisor with the real sim-engine", () => {
  it("starts to READY with the key in env only, then stops the whole group", async () => {
    const { supervisor, statuses, ring, dataDir } = makeSupervisor();
    const replica = supervisor.start(startSpec());
    await waitFor(() => replica.phase === ReplicaPhase.READY, { timeoutMs: 30_000, what: "READY" });
    expect(phases(statuses)).toEqual(["FETCHING", "STARTING", "READY"]);
    const ready = must(statuses.at(-1), "the READY status");
    expect(ready.port).toBeGreaterThan(0);
    expect(ready.pid).toBe(replica.pid);

    const cmdline = readFileSync(`/proc/${replica.pid}/cmdline`, "utf8");
    expect(cmdline).toContain("sim-engine");
    expect(cmdline).not.toContain(TEST_KEY);
    expect(readFileSync(`/proc/${replica.pid}/environ`, "utf8").split("\0")).toContain(
      `SIM_ENGINE_API_KEY=${TEST_KEY}`,
    );
    // The engine demands the key: without it /v1/models is refused, with it answered.
    const url = `http://127.0.0.1:${replica.port}/v1/models`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: `Bearer ${TEST_KEY}` } })).status).toBe(
      200,
    );

    const state = path.join(dataDir, "replicas.json");
    await waitFor(() => readFileSync(state, "utf8").includes(`"pid": ${replica.pid}`), {
      what: "replicas.json",
    });
    expect(statSync(state).mode & 0o777).toBe(0o600);
    expect(readFileSync(state, "utf8")).not.toContain(TEST_KEY);

    const pid = replica.pid;
    await supervisor.stop("r-1", "test over");
    expect(phases(statuses).at(-1)).toBe("STOPPED");
    expect(realProcessOps.isGroupAlive(pid)).toBe(false);
    expect(JSON.parse(readFileSync(state, "utf8")).replicas).toEqual([]);
    expect(ring.snapshot().join("\n")).not.toContain(TEST_KEY);
    expect(
      ring
        .snapshot()
        .some((line) => line.includes("engine starting") && line.includes("[redacted]")),
    ).toBe(true);
  });

  it("serves an adapter under MODEL:ADAPTER, keeps it from reclaim, and refuses a pickled one by name", async () => {
    const { supervisor } = makeSupervisor();
    const adapter = create(LoraAdapterSchema, { name: "sql", source: "/lora/sql.safetensors" });
    const replica = supervisor.start(startSpec({ servedModelName: "tiny", adapters: [adapter] }));
    await waitFor(() => replica.phase === ReplicaPhase.READY, { timeoutMs: 30_000, what: "READY" });
    expect(supervisor.cacheInUse().get(cacheName("/lora/sql.safetensors"))).toBe(
      "in use by replica r-1 on this node",
    );
    const models = await fetch(`http://127.0.0.1:${replica.port}/v1/models`, {
      headers: { authorization: `Bearer ${TEST_KEY}` },
    });
    const ids = ((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id);
    expect(ids).toEqual(["tiny", "tiny:sql"]);

    const pickled = create(LoraAdapterSchema, { name: "evil", source: "/lora/evil/adapter.bin" });
    const refused = supervisor.start(startSpec({ replicaId: "r-2", adapters: [pickled] }));
    await waitFor(() => refused.phase === ReplicaPhase.FAILED, {
      timeoutMs: 20_000,
      what: "FAILED",
    });
    expect(refused.message).toMatch(/adapter "evil": .*Python pickle/);
  });

  it("fails a never-ready engine after the start timeout and kills it", async () => {
    const { supervisor, statuses } = makeSupervisor();
    const replica = supervisor.start(
      startSpec({ args: ["--fault", "never-ready"], startTimeoutMs: 2000 }),
    );
    await waitFor(() => replica.phase === ReplicaPhase.STARTING, {
      timeoutMs: 20_000,
      what: "phase",
    });
    const pid = replica.pid;
    await waitFor(() => replica.phase === ReplicaPhase.FAILED, {
      timeoutMs: 20_000,
      what: "FAILED",
    });
    expect(replica.message).toMatch(
      /not ready within 2 s \(start timeout; last health answer: (503|none)\)/,
    );
    expect(phases(statuses)).toEqual(["FETCHING", "STARTING", "FAILED"]);
    await waitFor(() => !realProcessOps.isGroupAlive(pid), {
      timeoutMs: 10_000,
      what: "group gone",
    });
  });

  it("reports a crash with its exit code and the engine's last lines", async () => {
    const { supervisor, statuses } = makeSupervisor();
    const replica = supervisor.start(
      startSpec({ args: ["--ready-after-ms", "100", "--fault", "crash-after:1.5"] }),
    );
    await waitFor(() => replica.phase === ReplicaPhase.READY, { timeoutMs: 20_000, what: "phase" });
    await waitFor(() => replica.phase === ReplicaPhase.FAILED, {
      timeoutMs: 20_000,
      what: "FAILED",
    });
    const failed = must(statuses.at(-1), "the FAILED status");
    expect(failed.exitCode).toBe(1);
    expect(failed.message).toMatch(/^engine exited with code 1 after it was ready; last lines:\n/);
    expect(failed.message).toContain("crash-after");
  });

  it("starts the shards of a replica spanning nodes: the leader says where to join, the worker joins", async () => {
    const leaderNode = makeSupervisor();
    const workerNode = makeSupervisor();
    const shard = { nodeCount: 2, args: ["--ready-after-ms", "0"] };
    const leader = leaderNode.supervisor.start(startSpec({ ...shard, nodeRank: 0 }));
    const reported = await waitFor(
      () => leaderNode.statuses.find((status) => (status.leaderAddress ?? "") !== ""),
      { timeoutMs: 30_000, what: "the leader's address" },
    );
    const leaderAddress = reported.leaderAddress ?? "";
    expect(leaderAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(leaderAddress).not.toBe(`127.0.0.1:${leader.port}`);
    // Listed before the leader's address reached the control plane: kept out, not started.
    await workerNode.supervisor.applyDesired([startSpec({ ...shard, nodeRank: 1 })]);
    expect(workerNode.supervisor.get("r-1")).toBeUndefined();
    const worker = workerNode.supervisor.start(startSpec({ ...shard, nodeRank: 1, leaderAddress }));
    await waitFor(
      () => worker.phase === ReplicaPhase.READY && leader.phase === ReplicaPhase.READY,
      { timeoutMs: 30_000, what: "both shards READY" },
    );
    expect(worker.message).toMatch(/worker shard rank 1 of 2 running, joined to 127\.0\.0\.1:/);
    const cmdline = readFileSync(`/proc/${worker.pid}/cmdline`, "utf8").split("\0").join(" ");
    expect(cmdline).toContain(
      `--node-rank 1 --master-addr 127.0.0.1 --master-port ${leaderAddress.split(":")[1]} --headless`,
    );
    // The worker serves no API: only the leader answers /v1.
    const models = (port: number) =>
      fetch(`http://127.0.0.1:${port}/v1/models`, {
        headers: { authorization: `Bearer ${TEST_KEY}` },
      });
    expect((await models(leader.port)).status).toBe(200);
    expect((await models(worker.port)).status).toBe(404);
  });
});
