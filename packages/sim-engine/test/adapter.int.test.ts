// The agent's path end to end: a derived replica key, the sim adapter's command and environment,
// a real process, and the adapter's own health path and metric names read back from it.
import { describe, expect, it } from "vitest";
import { createSimAdapter, deriveReplicaKey, parseEngineMetrics } from "@llmgw/engines";
import { freePort, spawnProcess, waitFor } from "@llmgw/testing";
import { SIM_BIN } from "./helpers";

describe("sim adapter → sim-engine process", () => {
  it("starts with the derived key in its environment and answers only that key", async () => {
    const key = deriveReplicaKey(new Uint8Array(32).fill(3), "replica-7");
    const adapter = createSimAdapter({ command: process.execPath, prefixArgs: [SIM_BIN] });
    const port = await freePort();
    const command = adapter.buildCommand({
      replicaId: "replica-7",
      model: "/w/qwen",
      servedModelName: "qwen",
      host: "127.0.0.1",
      port,
      gpus: ["0"],
      apiKey: key,
    });
    expect(command.args).not.toContain(key);
    const proc = spawnProcess(command.command, [...command.args, "--ready-after-ms", "0"], {
      name: "sim-via-adapter",
      env: { ...command.env, VLLM_API_KEY: undefined },
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${base}${adapter.healthPath}`)).ok, {
      what: "sim-engine healthy",
      timeoutMs: 20_000,
    });
    const models = await fetch(`${base}/v1/models`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(((await models.json()) as { data: { id: string }[] }).data[0]?.id).toBe("qwen");
    const otherKey = deriveReplicaKey(new Uint8Array(32).fill(3), "replica-8");
    expect(
      (await fetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${otherKey}` } }))
        .status,
    ).toBe(401);
    const metrics = await (await fetch(`${base}${adapter.metricsPath ?? ""}`)).text();
    expect(
      parseEngineMetrics(
        metrics,
        adapter.metricNames ?? { runningRequests: [], waitingRequests: [], kvCacheUsageRatio: [] },
      ),
    ).toEqual({
      runningRequests: 0,
      waitingRequests: 0,
      kvCacheUsageRatio: 0,
    });
    expect(proc.output()).not.toContain(key);
    await proc.stop();
  });
});
