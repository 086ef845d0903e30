import { describe, expect, it } from "vitest";
import { parseModelDefinition, type ModelDefinitionInput } from "./model-definition";

function model(overrides: Partial<ModelDefinitionInput> = {}): ModelDefinitionInput {
  return {
    name: "qwen-7b",
    source: "Qwen/Qwen2.5-7B-Instruct",
    profiles: [{ name: "h100", engine: "vllm", gpu: "H100-80G", gpus: 2, tensor_parallel: 2 }],
    ...overrides,
  };
}

function errorsOf(input: unknown): string[] {
  const result = parseModelDefinition(input);
  return result.ok ? [] : result.errors;
}

describe("parseModelDefinition accepts", () => {
  it("a complete definition and fills the defaults", () => {
    const result = parseModelDefinition(model({ owner: { team: "search" } }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.replicas).toEqual({ min: 1, max: 1 });
    expect(result.model.allow_pickle).toBe(false);
    expect(result.model.priority_class).toBe("normal");
    expect(result.model.profiles[0]).toMatchObject({
      gpus: 2,
      nodes: 1,
      tensor_parallel: 2,
      args: [],
      env: {},
      node_selector: { labels: {} },
    });
  });

  it("a GPU need in place of a class, one card by default", () => {
    const result = parseModelDefinition(
      model({
        profiles: [
          { name: "any", engine: "vllm", gpu: { min_compute_capability: 8, min_memory_gb: 24 } },
        ],
      }),
    );
    expect(result.ok && result.model.profiles[0]?.gpus).toBe(1);
  });

  it("a GPU need with only memory, or only compute capability", () => {
    for (const gpu of [{ min_memory_gb: 40 }, { min_compute_capability: 8.0 }]) {
      const result = parseModelDefinition(
        model({ profiles: [{ name: "any", engine: "vllm", gpu }] }),
      );
      expect(result.ok ? result.model.profiles[0]?.gpu : result.errors).toEqual(gpu);
    }
  });

  it("an embedding model, off unless it says embeddings: true", () => {
    const chat = parseModelDefinition(model());
    expect(chat.ok && chat.model.embeddings).toBe(false);
    const embed = parseModelDefinition(model({ embeddings: true }));
    expect(embed.ok && embed.model.embeddings).toBe(true);
  });

  it("a CPU profile for llama.cpp and the simulator, with no cards", () => {
    for (const engine of ["llamacpp", "sim"] as const) {
      const result = parseModelDefinition(
        model({ source: "/models/q.gguf", profiles: [{ name: "cpu", engine }] }),
      );
      expect(result.ok && result.model.profiles[0]?.gpus).toBe(0);
    }
  });

  it("every accepted source form", () => {
    for (const source of [
      "org/name",
      "hf:org/name",
      "https://mirror/x.safetensors",
      "http://m/x.gguf",
      "file:///m/x",
      "/models/x",
    ]) {
      expect(errorsOf(model({ source }))).toEqual([]);
    }
  });

  it("a declared draw per card for power budgets", () => {
    const profiles = [{ name: "h100", engine: "vllm", gpu: "H100-80G", power_watts_per_card: 650 }];
    const result = parseModelDefinition(model({ profiles } as Partial<ModelDefinitionInput>));
    expect(result.ok && result.model.profiles[0]?.power_watts_per_card).toBe(650);
  });
});

describe("parseModelDefinition refuses, naming the field and what to do", () => {
  it("a name that is not DNS-label-like, explaining the rule", () => {
    const [error] = errorsOf(model({ name: "Qwen_7B" }));
    expect(error).toMatch(/^name: use 1-63 lowercase letters/);
  });

  it("a source of no known form", () => {
    expect(errorsOf(model({ source: "ftp://x/y" }))[0]).toMatch(/^source: .*Hugging Face id/);
    expect(errorsOf(model({ source: "models/../../etc" }))[0]).toMatch(/^source:/);
  });

  it.each([".bin", ".pt", ".pth", ".ckpt", ".pkl", ".pt2"])(
    "pickle weights (%s), also behind a query or fragment",
    (extension) => {
      for (const source of [
        `/m/model${extension}`,
        `https://h/model${extension.toUpperCase()}?download=1`,
        `https://h/model${extension}#frag`,
      ]) {
        const errors = errorsOf(model({ source }));
        expect(errors[0]).toMatch(
          /^source: .*Python pickle.*mirror the model's safetensors.*allow_pickle: true/,
        );
        expect(errorsOf(model({ source, allow_pickle: true }))).toEqual([]);
      }
    },
  );

  it("a Hugging Face id for TensorRT-LLM, which would download it past the safetensors check", () => {
    const profiles = [{ name: "trt", engine: "trtllm" as const, gpu: "H100-80G" }];
    expect(errorsOf(model({ profiles }))[0]).toMatch(/^source: TensorRT-LLM downloads/);
    expect(errorsOf(model({ profiles, source: "https://mirror/engine" }))).toEqual([]);
  });

  it.each(["vllm", "sglang", "trtllm"] as const)("%s without a GPU", (engine) => {
    const errors = errorsOf(model({ source: "/m/x", profiles: [{ name: "p", engine }] }));
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(`^profiles\\[0\\]\\.gpu: engine ${engine} needs a GPU.*use engine llamacpp`),
      ),
    ]);
  });

  it("llama.cpp on several nodes or with tensor parallel", () => {
    const errors = errorsOf(
      model({
        source: "/m/x.gguf",
        profiles: [
          { name: "p", engine: "llamacpp", gpu: "L40S", gpus: 2, nodes: 2, tensor_parallel: 2 },
        ],
      }),
    );
    expect(errors).toEqual([
      expect.stringMatching(/^profiles\[0\]\.nodes: llama\.cpp serves from one node/),
      expect.stringMatching(/^profiles\[0\]\.tensor_parallel: llama\.cpp splits layers/),
    ]);
  });

  it("engine flags, pointing at the argument", () => {
    const errors = errorsOf(
      model({
        profiles: [
          {
            name: "p",
            engine: "vllm",
            gpu: "L40S",
            args: ["--max-model-len", "8192", "--trust_remote"],
          },
        ],
      }),
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^profiles\[0\]\.args\[2\]: "--trust_remote" is refused \(vllm reads it as --trust-remote-code\)/,
      ),
    ]);
  });

  it("environment variables that pick cards, move the cache or set a key", () => {
    const errors = errorsOf(
      model({
        profiles: [
          {
            name: "p",
            engine: "vllm",
            gpu: "L40S",
            env: { CUDA_VISIBLE_DEVICES: "1", HF_HOME: "/x", NCCL_DEBUG: "INFO" },
          },
        ],
      }),
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^profiles\[0\]\.env\.CUDA_VISIBLE_DEVICES: .*placement chooses the cards/,
      ),
      expect.stringMatching(/^profiles\[0\]\.env\.HF_HOME: /),
    ]);
  });

  it("min above max", () => {
    expect(errorsOf(model({ replicas: { min: 3, max: 2 } }))).toEqual([
      "replicas: min 3 is above max 2; raise max or lower min",
    ]);
  });

  it("gpus without a gpu, a gpu with no cards, and a tensor_parallel that does not divide the cards", () => {
    expect(
      errorsOf(
        model({ source: "/m/x", profiles: [{ name: "p", engine: "llamacpp", gpus: 2 }] }),
      )[0],
    ).toMatch(/^profiles\[0\]\.gpus: gpus is set but gpu is not/);
    expect(
      errorsOf(model({ profiles: [{ name: "p", engine: "vllm", gpu: "L40S", gpus: 0 }] }))[0],
    ).toMatch(/^profiles\[0\]\.gpus: gpu is set but gpus is 0/);
    expect(
      errorsOf(
        model({
          profiles: [{ name: "p", engine: "vllm", gpu: "L40S", gpus: 2, tensor_parallel: 4 }],
        }),
      )[0],
    ).toMatch(
      /^profiles\[0\]\.tensor_parallel: tensor_parallel 4 must divide the replica's 2 cards/,
    );
  });

  it("two profiles of one name, an unknown engine, an unknown field, a bad class and an owner with two scopes", () => {
    const errors = errorsOf({
      ...model(),
      colour: "blue",
      owner: { org: "a", team: "b" },
      profiles: [
        { name: "p", engine: "vllm", gpu: "H100 80GB" },
        { name: "p", engine: "tgi", gpu: "L40S" },
      ],
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        "definition: unknown field colour; remove it or check the spelling",
        expect.stringMatching(/^owner: name exactly one owner/),
        expect.stringMatching(/^profiles\[0\]\.gpu: /),
        expect.stringMatching(
          /^profiles\[1\]\.engine: engine must be one of vllm, llamacpp, sglang, trtllm, sim/,
        ),
      ]),
    );
  });

  it("a GPU need with no bound, a bad bound, or a gpu of no known form", () => {
    const gpuErrors = (gpu: unknown) =>
      errorsOf(model({ profiles: [{ name: "p", engine: "vllm", gpu } as never] }));
    expect(gpuErrors({})).toEqual([
      expect.stringMatching(
        /^profiles\[0\]\.gpu: a need names at least one bound; write \{min_memory_gb: 40\}/,
      ),
    ]);
    expect(gpuErrors({ min_memory_gb: 0 })).toEqual([
      expect.stringMatching(
        /^profiles\[0\]\.gpu\.min_memory_gb: write the least card memory in GB/,
      ),
    ]);
    expect(gpuErrors({ min_memory_gb: "40GB" })).toEqual([
      expect.stringMatching(
        /^profiles\[0\]\.gpu\.min_memory_gb: write the least card memory in GB as a number/,
      ),
    ]);
    expect(gpuErrors({ min_compute_capability: 0.5, min_memory_gb: 24 })).toEqual([
      expect.stringMatching(
        /^profiles\[0\]\.gpu\.min_compute_capability: compute capability starts at 1/,
      ),
    ]);
    expect(gpuErrors({ min_memory_gb: 40, vram: 2 })).toEqual([
      "profiles[0].gpu: unknown field vram; remove it or check the spelling",
    ]);
    expect(gpuErrors(80)).toEqual([
      expect.stringMatching(
        /^profiles\[0\]\.gpu: write a GPU class such as "H100-80G", or a need such as/,
      ),
    ]);
  });

  it("fields of the wrong type or out of range, each named with what to write", () => {
    expect(errorsOf(model({ replicas: { min: "one", max: 2 } as never }))).toEqual([
      'replicas.min: "one" is not a number; write a number',
    ]);
    expect(errorsOf(model({ replicas: { min: 0, max: 0 } }))).toEqual([
      "replicas.max: write at least 1",
    ]);
    expect(errorsOf(model({ on_demand: "yes" as never }))).toEqual([
      'on_demand: "yes" is not true or false; write true or false',
    ]);
    expect(errorsOf(model({ embeddings: 1 as never }))).toEqual([
      "embeddings: 1 is not true or false; write true or false",
    ]);
    expect(
      errorsOf(model({ profiles: [{ name: "p", engine: "vllm", gpu: "L40S", gpus: 1.5 }] })),
    ).toEqual(["profiles[0].gpus: 1.5 is not a whole number; write a whole number"]);
    expect(
      errorsOf(
        model({ profiles: [{ name: "p", engine: "vllm", gpu: "L40S", args: "--x" as never }] }),
      ),
    ).toEqual(['profiles[0].args: "--x" is not a list ([…]); write a list ([…])']);
    expect(errorsOf({ source: "org/name", profiles: model().profiles })).toEqual([
      "name: this field is required; write text in quotes",
    ]);
  });

  it("an embedding model on an engine without an embedding mode", () => {
    const errors = errorsOf(
      model({
        embeddings: true,
        source: "https://mirror/engine",
        profiles: [{ name: "trt", engine: "trtllm", gpu: "H100-80G" }],
      }),
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^profiles\[0\]\.engine: engine trtllm cannot serve embeddings; use vllm, sglang, llamacpp/,
      ),
    ]);
  });

  it("no profiles at all", () => {
    expect(errorsOf(model({ profiles: [] }))).toEqual(["profiles: give at least one profile"]);
  });

  it("input that is not an object", () => {
    expect(errorsOf("qwen")[0]).toMatch(/^definition: /);
  });

  it("a declared draw that is not a positive number of watts", () => {
    const withDraw = (power_watts_per_card: unknown) =>
      errorsOf(
        model({
          profiles: [{ name: "h100", engine: "vllm", gpu: "H100-80G", power_watts_per_card }],
        } as unknown as Partial<ModelDefinitionInput>),
      );
    expect(withDraw(0)[0]).toMatch(/power_watts_per_card must be above 0/);
    expect(withDraw(50_000)[0]).toMatch(/power_watts_per_card must be at most 10000 W/);
    expect(withDraw("700W")[0]).toMatch(/power_watts_per_card is a number of watts/);
  });

  it("a start timeout under a second, over a day or not whole milliseconds", () => {
    const withTimeout = (start_timeout_ms: unknown) =>
      errorsOf(
        model({
          profiles: [{ name: "h100", engine: "vllm", gpu: "H100-80G", start_timeout_ms }],
        } as unknown as Partial<ModelDefinitionInput>),
      );
    expect(withTimeout(500)[0]).toMatch(/start_timeout_ms must be at least 1000 ms/);
    expect(withTimeout(90_000_000)[0]).toMatch(/start_timeout_ms must be at most a day/);
    expect(withTimeout(1.5)[0]).toMatch(/start_timeout_ms is a whole number of milliseconds/);
    expect(withTimeout(3_000)).toEqual([]);
  });
});
