import { describe, expect, it } from "vitest";
import {
  engineAdapters,
  EngineLaunchError,
  getEngineAdapter,
  redactArgs,
  redactEnv,
  type ReplicaLaunch,
} from "./index";
import { createSimAdapter } from "./adapters/sim";
import { createVllmAdapter } from "./adapters/vllm";

const KEY = "k3y-Secret_value-0123456789abcdefghijklmnopq";

function launch(overrides: Partial<ReplicaLaunch> = {}): ReplicaLaunch {
  return {
    replicaId: "rep-1",
    model: "/var/cache/llmgw/weights/abc123",
    servedModelName: "qwen-7b",
    host: "10.0.0.5",
    port: 31001,
    gpus: ["0", "1"],
    tensorParallel: 2,
    contextTokensMax: 8192,
    apiKey: KEY,
    ...overrides,
  };
}

function valueAfter(args: readonly string[], flag: string): string | undefined {
  const index = args.indexOf(flag);
  return index === -1 ? undefined : args[index + 1];
}

describe("vLLM adapter", () => {
  const command = engineAdapters.vllm.buildCommand(
    launch({ extraArgs: ["--enable-prefix-caching"] }),
  );

  it("serves the model with host, port, name, tensor parallel and context on argv", () => {
    expect(command.command).toBe("vllm");
    expect(command.args.slice(0, 2)).toEqual(["serve", "/var/cache/llmgw/weights/abc123"]);
    expect(valueAfter(command.args, "--host")).toBe("10.0.0.5");
    expect(valueAfter(command.args, "--port")).toBe("31001");
    expect(valueAfter(command.args, "--served-model-name")).toBe("qwen-7b");
    expect(valueAfter(command.args, "--tensor-parallel-size")).toBe("2");
    expect(valueAfter(command.args, "--max-model-len")).toBe("8192");
    expect(valueAfter(command.args, "--load-format")).toBe("safetensors");
    expect(command.args.at(-1)).toBe("--enable-prefix-caching");
  });

  it("hands the key over in VLLM_API_KEY and the cards in CUDA_VISIBLE_DEVICES, never on argv", () => {
    expect(command.env.VLLM_API_KEY).toBe(KEY);
    expect(command.env.CUDA_VISIBLE_DEVICES).toBe("0,1");
    expect(command.args.join(" ")).not.toContain(KEY);
    expect(command.secretEnv).toEqual(["VLLM_API_KEY"]);
    expect(command.secretFlags).toEqual([]);
  });

  it("switches to pooling for embeddings, or --task embed for older releases", () => {
    const modern = engineAdapters.vllm.buildCommand(launch({ isEmbedding: true }));
    expect(valueAfter(modern.args, "--runner")).toBe("pooling");
    const legacy = createVllmAdapter({ embeddingStyle: "task" }).buildCommand(
      launch({ isEmbedding: true }),
    );
    expect(valueAfter(legacy.args, "--task")).toBe("embed");
    expect(command.args).not.toContain("--runner");
  });

  it("refuses CPU, tensor parallel beyond its cards, and a key in the profile's args", () => {
    expect(() => engineAdapters.vllm.buildCommand(launch({ gpus: [], tensorParallel: 1 }))).toThrow(
      /cannot serve on CPU/,
    );
    expect(() =>
      engineAdapters.vllm.buildCommand(launch({ gpus: ["0"], tensorParallel: 2 })),
    ).toThrow(/needs 2 cards but the replica has 1/);
    expect(() => engineAdapters.vllm.buildCommand(launch({ extraArgs: ["--api-key=x"] }))).toThrow(
      EngineLaunchError,
    );
  });

  it("does not let the profile's environment move cards or swap the key", () => {
    const env = engineAdapters.vllm.buildCommand(
      launch({ extraEnv: { CUDA_VISIBLE_DEVICES: "7", VLLM_API_KEY: "mine", HF_HOME: "/x" } }),
    ).env;
    expect(env).toMatchObject({ CUDA_VISIBLE_DEVICES: "0,1", VLLM_API_KEY: KEY, HF_HOME: "/x" });
    const keyless = engineAdapters.vllm.buildCommand(
      launch({ apiKey: undefined, extraEnv: { VLLM_API_KEY: "mine" } }),
    );
    expect(keyless.env.VLLM_API_KEY).toBeUndefined();
    expect(keyless.warnings.join()).toMatch(/without a key/);
  });
});

describe("llama.cpp adapter", () => {
  it("runs llama-server with --metrics, the alias and the key in LLAMA_API_KEY", () => {
    const command = engineAdapters.llamacpp.buildCommand(
      launch({ model: "/w/m.gguf", tensorParallel: 1 }),
    );
    expect(command.command).toBe("llama-server");
    expect(valueAfter(command.args, "--model")).toBe("/w/m.gguf");
    expect(valueAfter(command.args, "--alias")).toBe("qwen-7b");
    expect(valueAfter(command.args, "--ctx-size")).toBe("8192");
    expect(valueAfter(command.args, "--n-gpu-layers")).toBe("999");
    expect(command.args).toContain("--metrics");
    expect(command.env.LLAMA_API_KEY).toBe(KEY);
    expect(command.args.join(" ")).not.toContain(KEY);
  });

  it("serves on CPU with every card hidden, and embeddings with --embeddings", () => {
    const command = engineAdapters.llamacpp.buildCommand(
      launch({ gpus: [], tensorParallel: undefined, isEmbedding: true }),
    );
    expect(command.env.CUDA_VISIBLE_DEVICES).toBe("");
    expect(valueAfter(command.args, "--n-gpu-layers")).toBe("0");
    expect(command.args).toContain("--embeddings");
  });

  it("refuses tensor parallel, since its cards split by layers", () => {
    expect(() => engineAdapters.llamacpp.buildCommand(launch({ tensorParallel: 2 }))).toThrow(
      /tensor parallel 2 is not supported/,
    );
  });
});

describe("SGLang adapter", () => {
  const command = engineAdapters.sglang.buildCommand(launch({ isEmbedding: true }));

  it("launches sglang.launch_server with metrics on and its flags", () => {
    expect(command.command).toBe("python3");
    expect(command.args.slice(0, 2)).toEqual(["-m", "sglang.launch_server"]);
    expect(valueAfter(command.args, "--model-path")).toBe("/var/cache/llmgw/weights/abc123");
    expect(valueAfter(command.args, "--tp-size")).toBe("2");
    expect(valueAfter(command.args, "--context-length")).toBe("8192");
    expect(command.args).toContain("--enable-metrics");
    expect(command.args).toContain("--is-embedding");
  });

  it("is the one engine whose key is on argv, marked so logs redact it", () => {
    expect(engineAdapters.sglang.keyDelivery).toEqual({ kind: "argv", flag: "--api-key" });
    expect(valueAfter(command.args, "--api-key")).toBe(KEY);
    expect(command.secretFlags).toEqual(["--api-key"]);
    expect(redactArgs(command.args, command.secretFlags).join(" ")).not.toContain(KEY);
    expect(Object.values(command.env).join(" ")).not.toContain(KEY);
  });
});

describe("TensorRT-LLM adapter", () => {
  it("uses trtllm-serve's underscore flags and warns that it cannot check a key", () => {
    const command = engineAdapters.trtllm.buildCommand(launch());
    expect(command.command).toBe("trtllm-serve");
    expect(command.args[0]).toBe("/var/cache/llmgw/weights/abc123");
    expect(valueAfter(command.args, "--tp_size")).toBe("2");
    expect(valueAfter(command.args, "--max_seq_len")).toBe("8192");
    expect(valueAfter(command.args, "--served_model_name")).toBe("qwen-7b");
    expect([...command.args, ...Object.values(command.env)].join(" ")).not.toContain(KEY);
    expect(command.warnings.join()).toMatch(/cannot check a key/);
    expect(engineAdapters.trtllm.metricNames).toBeUndefined();
  });
});

describe("sim adapter", () => {
  it("runs `llmgw sim-engine` with the key in SIM_ENGINE_API_KEY", () => {
    const command = engineAdapters.sim.buildCommand(launch({ gpus: [], tensorParallel: 1 }));
    expect(command.command).toBe("llmgw");
    expect(command.args.slice(0, 1)).toEqual(["sim-engine"]);
    expect(valueAfter(command.args, "--model")).toBe("qwen-7b");
    expect(valueAfter(command.args, "--max-model-len")).toBe("8192");
    expect(command.env.SIM_ENGINE_API_KEY).toBe(KEY);
    expect(command.args.join(" ")).not.toContain(KEY);
  });

  it("takes the agent's own launcher", () => {
    const adapter = createSimAdapter({
      command: "/usr/bin/node",
      prefixArgs: ["/opt/llmgw.mjs", "sim-engine"],
    });
    const command = adapter.buildCommand(launch());
    expect(command.command).toBe("/usr/bin/node");
    expect(command.args.slice(0, 2)).toEqual(["/opt/llmgw.mjs", "sim-engine"]);
  });
});

describe("every adapter", () => {
  it.each(Object.values(engineAdapters))(
    "$name keeps env-delivered keys out of argv",
    (adapter) => {
      const command = adapter.buildCommand(
        launch({ tensorParallel: adapter.supportsTensorParallel ? 2 : 1 }),
      );
      if (adapter.keyDelivery.kind !== "argv") expect(command.args.join(" ")).not.toContain(KEY);
      expect(adapter.healthPath).toBe("/health");
    },
  );

  it("is found by name, and an unknown name lists the known ones", () => {
    expect(getEngineAdapter("llamacpp").name).toBe("llamacpp");
    expect(() => getEngineAdapter("ollama")).toThrow(/vllm, llamacpp, sglang, trtllm, sim/);
  });
});

describe("redaction", () => {
  it("hides values of secret flags in both spellings and leaves the rest", () => {
    expect(redactArgs(["--port", "1", "--api-key", "s1", "--api-key=s2", "--api-key"])).toEqual([
      "--port",
      "1",
      "--api-key",
      "[redacted]",
      "--api-key=[redacted]",
      "--api-key",
    ]);
    expect(redactEnv({ VLLM_API_KEY: "s", PATH: "/bin" }, ["VLLM_API_KEY"])).toEqual({
      VLLM_API_KEY: "[redacted]",
      PATH: "/bin",
    });
  });
});
