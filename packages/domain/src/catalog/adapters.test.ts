import { describe, expect, it } from "vitest";
import { splitAdapterModelName } from "./adapters";
import { checkEngineArgs } from "./engine-flags";
import { parseModelDefinition, type ModelDefinitionInput } from "./model-definition";

function model(overrides: Partial<ModelDefinitionInput> = {}): ModelDefinitionInput {
  return {
    name: "qwen-7b",
    source: "Qwen/Qwen2.5-7B-Instruct",
    profiles: [{ name: "h100", engine: "vllm", gpu: "H100-80G" }],
    adapters: [
      { name: "sql", source: "https://mirror.example/sql-lora/adapter_model.safetensors" },
    ],
    ...overrides,
  };
}

function errorsOf(input: ModelDefinitionInput): string[] {
  const result = parseModelDefinition(input);
  return result.ok ? [] : result.errors;
}

describe("a model's adapters", () => {
  it("are accepted as safetensors and default to none", () => {
    const result = parseModelDefinition(
      model({ adapters: [{ name: "sql", source: "acme/sql-lora", rank: 16 }] }),
    );
    expect(result.ok && result.model.adapters).toEqual([
      { name: "sql", source: "acme/sql-lora", rank: 16 },
    ]);
    const none = parseModelDefinition(model({ adapters: undefined }));
    expect(none.ok && none.model.adapters).toEqual([]);
  });

  it("refuse a pickle with how to fix it, unless allow_pickle", () => {
    const pickled = model({
      adapters: [{ name: "sql", source: "https://mirror.example/sql/adapter_model.bin?dl=1" }],
    });
    expect(errorsOf(pickled).join("\n")).toMatch(
      /adapter "sql".*Python pickle \(\.bin\).*adapter_model\.safetensors.*allow_pickle: true/,
    );
    expect(errorsOf({ ...pickled, allow_pickle: true })).toEqual([]);
  });

  it("refuse a name given twice, a bad name and a source that is none", () => {
    const errors = errorsOf(
      model({
        adapters: [
          { name: "sql", source: "/lora/a.safetensors" },
          { name: "sql", source: "/lora/b.safetensors" },
          { name: "Bad:Name", source: "not a source" },
        ],
      }),
    ).join("\n");
    expect(errors).toMatch(/adapter "sql" is named twice/);
    expect(errors).toMatch(/adapter name: use 1-63 lowercase/);
  });

  it("need one .gguf file for llama.cpp", () => {
    const cpu = [{ name: "cpu", engine: "llamacpp" as const }];
    expect(errorsOf(model({ profiles: cpu })).join("\n")).toMatch(
      /llama\.cpp loads a LoRA only as one \.gguf file; convert it with llama\.cpp's convert_lora_to_gguf\.py/,
    );
    expect(
      errorsOf(
        model({
          source: "/m/tiny.gguf",
          profiles: cpu,
          adapters: [{ name: "sql", source: "/l/sql.gguf" }],
        }),
      ),
    ).toEqual([]);
  });

  it("refuse a llama.cpp adapter path llama-server's --lora-scaled PATH:SCALE,… would cut", () => {
    const cpu = [{ name: "cpu", engine: "llamacpp" as const }];
    for (const source of ["/l/a:b.gguf", "file:///l/a,b.gguf"])
      expect(
        errorsOf(
          model({ source: "/m/tiny.gguf", profiles: cpu, adapters: [{ name: "sql", source }] }),
        ).join("\n"),
      ).toMatch(/llama\.cpp cannot load a LoRA whose path holds ":" or ","/);
    const fileUrl = [{ name: "sql", source: "file:///l/sql.gguf" }];
    expect(errorsOf(model({ source: "/m/tiny.gguf", profiles: cpu, adapters: fileUrl }))).toEqual(
      [],
    );
  });

  it("are held to each engine's rank and count limits", () => {
    expect(
      errorsOf(
        model({ adapters: [{ name: "big", source: "/l/big.safetensors", rank: 1024 }] }),
      ).join("\n"),
    ).toMatch(/engine vllm loads adapters up to rank 512 and one has rank 1024/);
    const nine = Array.from({ length: 9 }, (_, i) => ({
      name: `a${i}`,
      source: `/l/a${i}.safetensors`,
    }));
    const sglang = [{ name: "h100", engine: "sglang" as const, gpu: "H100-80G" }];
    expect(errorsOf(model({ profiles: sglang, adapters: nine })).join("\n")).toMatch(
      /engine sglang holds at most 8 adapters at once and the model lists 9/,
    );
  });

  it("are refused on an engine that cannot load them", () => {
    const trt = [{ name: "h100", engine: "trtllm" as const, gpu: "H100-80G" }];
    expect(errorsOf(model({ source: "/m/engine", profiles: trt })).join("\n")).toMatch(
      /engine trtllm cannot serve LoRA adapters; use vllm, sglang, llamacpp, sim, or remove adapters/,
    );
  });
});

describe("engine arguments that load adapters", () => {
  it("are refused: the catalog's adapters list is the one place", () => {
    expect(checkEngineArgs("vllm", ["--lora-modules", "x=/tmp/x"])[0]?.message).toMatch(
      /loads LoRA adapters; list them in the model's adapters/,
    );
    expect(checkEngineArgs("sglang", ["--lora-paths", "x=/tmp/x"])).toHaveLength(1);
    expect(checkEngineArgs("llamacpp", ["--lora", "/tmp/x.gguf"])).toHaveLength(1);
  });
});

describe("splitAdapterModelName", () => {
  it("reads MODEL:ADAPTER and leaves a plain name alone", () => {
    expect(splitAdapterModelName("qwen-7b:sql")).toEqual({ model: "qwen-7b", adapter: "sql" });
    expect(splitAdapterModelName("qwen-7b")).toBeUndefined();
    expect(splitAdapterModelName(":sql")).toBeUndefined();
    expect(splitAdapterModelName("qwen-7b:")).toBeUndefined();
  });
});
