import { describe, expect, it } from "vitest";
import { parseModelDefinition, type ModelDefinition } from "@llmgw/domain";
import { requestTarget, servedNames, withAdapterSelection } from "./adapter-target";

function definition(engine: "vllm" | "llamacpp"): ModelDefinition {
  const parsed = parseModelDefinition({
    name: "qwen",
    source: engine === "llamacpp" ? "/m/qwen.gguf" : "/m/qwen",
    profiles: [{ name: "p", engine, ...(engine === "vllm" ? { gpu: "H100-80G" } : {}) }],
    adapters: [
      { name: "sql", source: "/l/sql.gguf" },
      { name: "legal", source: "/l/legal.gguf" },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.model;
}

const catalogOf = (model: ModelDefinition) => ({
  get: (name: string) => (name === model.name ? model : undefined),
});

function targetOf(engine: "vllm" | "llamacpp", requested: string) {
  const target = requestTarget(catalogOf(definition(engine)), requested);
  if (target === undefined) throw new Error(`no target for ${requested}`);
  return target;
}

describe("requestTarget", () => {
  it("reads a model, an adapter of it, and refuses an adapter it has not", () => {
    const catalog = catalogOf(definition("vllm"));
    expect(requestTarget(catalog, "qwen")?.adapterIndex).toBeUndefined();
    expect(requestTarget(catalog, "qwen:legal")).toMatchObject({ model: "qwen", adapterIndex: 1 });
    expect(requestTarget(catalog, "qwen:poetry")).toBeUndefined();
    expect(requestTarget(catalog, "other:sql")).toBeUndefined();
  });

  it("lists the model and each adapter by the name clients send", () => {
    expect(servedNames(definition("vllm"))).toEqual(["qwen", "qwen:sql", "qwen:legal"]);
  });
});

describe("withAdapterSelection", () => {
  const raw = Buffer.from(JSON.stringify({ model: "qwen:legal", messages: [] }));

  it("tells llama.cpp which adapter to apply by its index", () => {
    const body = JSON.parse(
      withAdapterSelection(raw, targetOf("llamacpp", "qwen:legal")).toString("utf8"),
    );
    expect(body).toEqual({ model: "qwen:legal", messages: [], lora: [{ id: 1, scale: 1 }] });
  });

  it("leaves the body alone for an engine that names its adapters, and for the base model", () => {
    expect(withAdapterSelection(raw, targetOf("vllm", "qwen:legal"))).toBe(raw);
    const plain = Buffer.from(JSON.stringify({ model: "qwen", messages: [] }));
    expect(
      JSON.parse(withAdapterSelection(plain, targetOf("llamacpp", "qwen")).toString()),
    ).toEqual({ model: "qwen", messages: [] });
  });

  it("drops a client's own lora field, which would apply an adapter through the base name", () => {
    const attack = { model: "qwen", messages: [], lora: [{ id: 1, scale: 1 }] };
    const sent = withAdapterSelection(
      Buffer.from(JSON.stringify(attack)),
      targetOf("llamacpp", "qwen"),
    );
    expect(JSON.parse(sent.toString("utf8"))).toEqual({ model: "qwen", messages: [] });
    const escaped = Buffer.from('{"model":"qwen","messages":[],"\\u006cora":[{"id":1,"scale":1}]}');
    const unescaped = withAdapterSelection(escaped, targetOf("llamacpp", "qwen"));
    expect(JSON.parse(unescaped.toString("utf8"))).toEqual({ model: "qwen", messages: [] });
    const scaled = {
      model: "qwen:sql",
      messages: [],
      lora: [
        { id: 0, scale: 40 },
        { id: 1, scale: 1 },
      ],
    };
    const chosen = withAdapterSelection(
      Buffer.from(JSON.stringify(scaled)),
      targetOf("llamacpp", "qwen:sql"),
    );
    expect(JSON.parse(chosen.toString("utf8")).lora).toEqual([{ id: 0, scale: 1 }]);
  });
});
