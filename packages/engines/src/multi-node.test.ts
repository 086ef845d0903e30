import { describe, expect, it } from "vitest";
import {
  engineAdapters,
  EngineLaunchError,
  type MultiNodeLaunch,
  type ReplicaLaunch,
} from "./index";

const KEY = "k3y-Secret_value-0123456789abcdefghijklmnopq";

function shard(nodeRank: number, overrides: Partial<ReplicaLaunch> = {}): ReplicaLaunch {
  const multiNode: MultiNodeLaunch = {
    nodeRank,
    nodeCount: 2,
    leaderHost: "10.0.0.5",
    leaderPort: 29500,
  };
  return {
    replicaId: "big-1",
    model: "/var/cache/llmgw/weights/abc123",
    servedModelName: "llama-405b",
    host: "10.0.0.6",
    port: 31001,
    gpus: ["0", "1", "2", "3"],
    tensorParallel: 4,
    apiKey: KEY,
    multiNode,
    ...overrides,
  };
}

function valueAfter(args: readonly string[], flag: string): string | undefined {
  const index = args.indexOf(flag);
  return index === -1 ? undefined : args[index + 1];
}

describe("a replica spanning two nodes", () => {
  it("starts vLLM's leader with the multiprocessing backend, node count, rank and master address", () => {
    const { args } = engineAdapters.vllm.buildCommand(shard(0));
    expect(valueAfter(args, "--distributed-executor-backend")).toBe("mp");
    expect(valueAfter(args, "--nnodes")).toBe("2");
    expect(valueAfter(args, "--node-rank")).toBe("0");
    expect(valueAfter(args, "--master-addr")).toBe("10.0.0.5");
    expect(valueAfter(args, "--master-port")).toBe("29500");
    // Four cards per node, tensor parallel 4: one pipeline stage per node.
    expect(valueAfter(args, "--tensor-parallel-size")).toBe("4");
    expect(valueAfter(args, "--pipeline-parallel-size")).toBe("2");
    expect(args).not.toContain("--headless");
  });

  it("starts vLLM's worker headless, with its key in the environment and never on argv", () => {
    const command = engineAdapters.vllm.buildCommand(shard(1));
    expect(command.args).toContain("--headless");
    expect(valueAfter(command.args, "--node-rank")).toBe("1");
    expect(command.args.join(" ")).not.toContain(KEY);
    expect(command.env.VLLM_API_KEY).toBe(KEY);
    expect(engineAdapters.vllm.workerHealthPath).toBeUndefined();
  });

  it("lets tensor parallel span the nodes' cards", () => {
    const { args } = engineAdapters.vllm.buildCommand(shard(0, { tensorParallel: 8 }));
    expect(valueAfter(args, "--tensor-parallel-size")).toBe("8");
    expect(valueAfter(args, "--pipeline-parallel-size")).toBe("1");
    expect(() => engineAdapters.vllm.buildCommand(shard(0, { tensorParallel: 16 }))).toThrow(
      /needs 16 cards but the replica has 8/,
    );
  });

  it("gives SGLang --nnodes, --node-rank and --dist-init-addr, and a worker no key", () => {
    const leader = engineAdapters.sglang.buildCommand(shard(0, { tensorParallel: 8 }));
    expect(valueAfter(leader.args, "--dist-init-addr")).toBe("10.0.0.5:29500");
    expect(valueAfter(leader.args, "--nnodes")).toBe("2");
    expect(valueAfter(leader.args, "--tp-size")).toBe("8");
    expect(leader.args).not.toContain("--pp-size");
    expect(valueAfter(leader.args, "--api-key")).toBe(KEY);
    const worker = engineAdapters.sglang.buildCommand(shard(1, { tensorParallel: 4 }));
    expect(valueAfter(worker.args, "--node-rank")).toBe("1");
    expect(valueAfter(worker.args, "--pp-size")).toBe("2");
    expect(worker.args.join(" ")).not.toContain(KEY);
  });

  it("runs the simulator with vLLM's flags, its worker answering health", () => {
    const { args } = engineAdapters.sim.buildCommand(shard(1));
    expect(valueAfter(args, "--master-addr")).toBe("10.0.0.5");
    expect(args).toContain("--headless");
    expect(engineAdapters.sim.workerHealthPath).toBe("/health");
  });

  it("is refused by llama.cpp and TensorRT-LLM, and with a rank or leader that cannot be", () => {
    const oneCard = { gpus: ["0"], tensorParallel: 1 };
    expect(() => engineAdapters.llamacpp.buildCommand(shard(0, oneCard))).toThrow(
      /serves from one node/,
    );
    expect(() => engineAdapters.trtllm.buildCommand(shard(0))).toThrow(EngineLaunchError);
    const badRank = shard(2);
    expect(() => engineAdapters.vllm.buildCommand(badRank)).toThrow(/node rank 2 is not 0-1/);
    const injected = shard(1, {
      multiNode: { nodeRank: 1, nodeCount: 2, leaderHost: "x --trust-remote-code", leaderPort: 1 },
    });
    expect(() => engineAdapters.vllm.buildCommand(injected)).toThrow(/leader host/);
  });
});
