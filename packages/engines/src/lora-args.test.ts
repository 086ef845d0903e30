import { describe, expect, it } from "vitest";
import { engineAdapters, type ReplicaLaunch } from "./index";

const ADAPTERS = [
  { name: "sql", path: "/cache/weights/aa11", rank: 12 },
  { name: "legal", path: "/cache/weights/bb22/lora.gguf" },
];

function launch(overrides: Partial<ReplicaLaunch> = {}): ReplicaLaunch {
  return {
    replicaId: "rep-1",
    model: "/cache/weights/abc123",
    servedModelName: "qwen-7b",
    host: "127.0.0.1",
    port: 31001,
    gpus: ["0"],
    adapters: ADAPTERS,
    ...overrides,
  };
}

function after(args: readonly string[], flag: string, count = 1): string[] {
  const index = args.indexOf(flag);
  return index === -1 ? [] : args.slice(index + 1, index + 1 + count);
}

describe("LoRA adapters on each engine's command line", () => {
  it("vLLM enables LoRA and names each adapter MODEL:ADAPTER, the rank rounded up to one it takes", () => {
    const { args } = engineAdapters.vllm.buildCommand(launch());
    expect(args).toContain("--enable-lora");
    expect(after(args, "--max-loras")).toEqual(["2"]);
    expect(after(args, "--max-lora-rank")).toEqual(["16"]);
    expect(after(args, "--lora-modules", 2)).toEqual([
      "qwen-7b:sql=/cache/weights/aa11",
      "qwen-7b:legal=/cache/weights/bb22/lora.gguf",
    ]);
  });

  it("SGLang takes name=path in --lora-paths and a batch that holds all of them", () => {
    const { args } = engineAdapters.sglang.buildCommand(launch());
    expect(after(args, "--lora-paths", 2)).toEqual([
      "qwen-7b:sql=/cache/weights/aa11",
      "qwen-7b:legal=/cache/weights/bb22/lora.gguf",
    ]);
    expect(after(args, "--max-loras-per-batch")).toEqual(["2"]);
    expect(after(args, "--max-lora-rank")).toEqual(["12"]);
  });

  it("llama.cpp loads each adapter at scale 0, so the base model answers plain requests", () => {
    const { args } = engineAdapters.llamacpp.buildCommand(launch({ gpus: [] }));
    expect(after(args, "--lora-scaled")).toEqual(["/cache/weights/aa11:0"]);
    expect(args.filter((arg) => arg === "--lora-scaled")).toHaveLength(2);
    // --lora (scale 1) would apply every adapter to requests naming none, unapplied or not.
    expect(args).not.toContain("--lora");
  });

  it("the simulator reads vLLM's flags", () => {
    const { args } = engineAdapters.sim.buildCommand(launch());
    expect(after(args, "--lora-modules", 2)[0]).toBe("qwen-7b:sql=/cache/weights/aa11");
  });

  it("no adapters, no LoRA flags", () => {
    for (const engine of ["vllm", "sglang", "llamacpp", "sim"] as const) {
      const { args } = engineAdapters[engine].buildCommand(launch({ adapters: [] }));
      expect(args.join(" ")).not.toMatch(/lora/);
    }
  });
});
