import { describe, expect, it } from "vitest";
import { checkEngineArgs } from "./engine-flags";

const refusedIndexes = (engine: Parameters<typeof checkEngineArgs>[0], args: string[]) =>
  checkEngineArgs(engine, args).map((refusal) => refusal.index);

describe("checkEngineArgs for argparse engines (vLLM, SGLang)", () => {
  it("refuses an unambiguous beginning of a refused flag, as argparse takes it", () => {
    const [refusal] = checkEngineArgs("vllm", ["--trust-remote"]);
    expect(refusal?.message).toContain("reads it as --trust-remote-code");
    expect(refusal?.message).toContain("runs code");
  });

  it("reads underscores as dashes and looks before an =", () => {
    expect(
      refusedIndexes("vllm", [
        "--load_format=pt",
        "--download_dir",
        "/tmp",
        "--max_model_len=4096",
      ]),
    ).toEqual([0, 1]);
    expect(refusedIndexes("sglang", ["--load-form", "auto", "--model_path=/x"])).toEqual([0, 2]);
  });

  it("refuses flags that pick the card or the parallelism the profile sets", () => {
    expect(
      refusedIndexes("vllm", ["--device", "cuda:1", "-tp", "2", "--tensor-parallel-size=4"]),
    ).toEqual([0, 2, 4]);
    expect(refusedIndexes("sglang", ["--base-gpu-id", "3", "--tp-size", "2"])).toEqual([0, 2]);
  });

  it("refuses the multi-node flags the agent sets for each shard of a replica spanning nodes", () => {
    expect(
      refusedIndexes("vllm", [
        "--nnodes=4",
        "--node_rank",
        "1",
        "--master-addr",
        "evil.example",
        "--headless",
        "--distributed-executor-backend=ray",
      ]),
    ).toEqual([0, 1, 3, 5, 6]);
    expect(refusedIndexes("sglang", ["--dist-init-addr", "evil:1", "--pp-size", "2"])).toEqual([
      0, 2,
    ]);
  });

  it("lets ordinary flags and values through", () => {
    expect(
      refusedIndexes("vllm", [
        "--max-model-len",
        "8192",
        "--gpu-memory-utilization=0.9",
        "--enable-prefix-caching",
        "-q",
        "awq",
      ]),
    ).toEqual([]);
    expect(refusedIndexes("vllm", ["--model-impl", "transformers"])).toEqual([]);
  });

  it("says how to fix it", () => {
    expect(checkEngineArgs("vllm", ["--model", "/x"])[0]?.message).toContain(
      "set the model's source instead",
    );
    expect(checkEngineArgs("vllm", ["--port=9"])[0]?.message).toContain("the agent sets it");
  });
});

describe("checkEngineArgs for llama.cpp, which matches exact spellings", () => {
  it("refuses its short spellings as written", () => {
    const shorts = ["-m", "-mu", "-hf", "-hfr", "-hff", "-mm", "-jf", "-ngl", "-dev", "-mg", "-ts"];
    expect(refusedIndexes("llamacpp", shorts)).toEqual(shorts.map((_, index) => index));
  });

  it("refuses long spellings, with underscores read as dashes", () => {
    expect(
      refusedIndexes("llamacpp", ["--model", "--n_gpu_layers", "99", "--hf-repo=x/y", "--mmproj"]),
    ).toEqual([0, 1, 3, 4]);
  });

  it("does not treat a beginning as the flag, so --chat-template stays allowed", () => {
    expect(
      refusedIndexes("llamacpp", [
        "--chat-template",
        "chatml",
        "--mod",
        "-c",
        "8192",
        "--ctx-size=4096",
      ]),
    ).toEqual([]);
    expect(refusedIndexes("llamacpp", ["--chat-template-file", "/etc/passwd"])).toEqual([0]);
  });
});

describe("checkEngineArgs for TensorRT-LLM and the simulator", () => {
  it("refuses the engine backend and the parallelism flags", () => {
    expect(
      refusedIndexes("trtllm", ["--backend", "pytorch", "--tp_size", "2", "--max_batch_size", "8"]),
    ).toEqual([0, 2]);
  });

  it("lets the simulator take its own knobs but not the agent's", () => {
    expect(refusedIndexes("sim", ["--ttft-ms", "200", "--port", "1"])).toEqual([2]);
  });
});
