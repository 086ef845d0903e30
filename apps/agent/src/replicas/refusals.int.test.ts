// What a node refuses itself, whatever the control plane asked: pickles, engines it does not have;
// and what a simulated node does instead of a real engine (the simulator, labelled as such).
import { readFileSync } from "node:fs";
import { ReplicaPhase } from "@llmgw/proto";
import { waitFor } from "@llmgw/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  killStartedEngines,
  makeSupervisor,
  startSpec,
  TEST_KEY,
} from "../../test/replica-harness";
import { answerLogs } from "../logs-answer";

afterEach(killStartedEngines);

describe("refusals on the node", () => {
  it("refuses a pickle source unless StartReplica.allow_pickle", async () => {
    const { supervisor } = makeSupervisor();
    const replica = supervisor.start(
      startSpec({ source: "https://mirror.lan/org/model/pytorch_model.bin" }),
    );
    await waitFor(() => replica.phase === ReplicaPhase.FAILED, { what: "FAILED" });
    expect(replica.message).toMatch(
      /ends in \.bin, a Python pickle that runs code when loaded; mirror the model's \.safetensors/,
    );
    expect(replica.pid).toBe(0);
  });

  it("a real node refuses an engine it does not have, naming what it offers", async () => {
    const { supervisor, statuses } = makeSupervisor({ isSimulated: false, engines: ["llamacpp"] });
    const replica = supervisor.start(startSpec({ engine: "vllm" }));
    await waitFor(() => replica.phase === ReplicaPhase.FAILED, { what: "FAILED" });
    expect(statuses.at(-1)).toMatchObject({
      phase: ReplicaPhase.FAILED,
      message: "this node has no vllm; it offers: llamacpp",
      engine: "vllm",
    });
  });

  it("a simulated node runs the simulator for vllm, says so, and never logs the key", async () => {
    const { supervisor, ring } = makeSupervisor();
    // A hub id: a real node without a route to the hub would fail; the stand-in fetches nothing.
    const replica = supervisor.start(
      startSpec({
        engine: "vllm",
        source: "meta-llama/Llama-3.1-8B-Instruct",
        args: ["--gpu-memory-utilization", "0.9"],
        gpuIndexes: [0, 1],
        tensorParallel: 2,
      }),
    );
    await waitFor(() => replica.phase === ReplicaPhase.READY, { timeoutMs: 30_000, what: "READY" });
    expect(replica.message).toBe("ready (simulated node: sim-engine runs in place of vllm)");
    expect(replica.status()).toMatchObject({ engine: "vllm", gpuIndexes: [0, 1] });
    expect(readFileSync(`/proc/${replica.pid}/environ`, "utf8").split("\0")).toContain(
      "CUDA_VISIBLE_DEVICES=0,1",
    );

    const agentLog = answerLogs({ source: "", lines: 0 }, { supervisor, agentRing: ring });
    expect(agentLog.lines.length).toBeGreaterThan(0);
    expect(agentLog.lines.join("\n")).toContain(
      "weights not fetched: the simulator stands in for the engine",
    );
    expect(agentLog.sources).toEqual(["agent", "r-1"]);
    await replica.logTail?.poll();
    const engineLog = answerLogs({ source: "r-1", lines: 5 }, { supervisor, agentRing: ring });
    expect(engineLog.lines.join("\n")).toContain("sim-engine: listening");
    expect(engineLog.lines.length).toBeLessThanOrEqual(5);
    expect(answerLogs({ source: "r-404", lines: 5 }, { supervisor, agentRing: ring }).error).toBe(
      'no log source "r-404" on this node; known sources: agent, r-1',
    );
    // The key is in neither the agent's log (with its env dump) nor the engine's.
    const everything = [
      ...ring.snapshot(),
      ...engineLog.lines,
      ...(replica.logTail?.lastLines(500) ?? []),
    ].join("\n");
    expect(everything).toContain("SIM_ENGINE_API_KEY");
    expect(everything).not.toContain(TEST_KEY);
  });
});
