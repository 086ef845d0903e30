import { describe, expect, it } from "vitest";
import { must } from "../must";
import { externalKeyFiles, parseModelDefinition } from "./model-definition";

function errorsOf(input: unknown): string[] {
  const result = parseModelDefinition(input);
  return result.ok ? [] : result.errors;
}

const external = (fields: Record<string, unknown> = {}) => ({
  name: "gpt-ext",
  external: {
    url: "https://api.example.com/v1",
    model: "gpt-4o-mini",
    api_key_file: "/etc/llmgw/openai.key",
    ...fields,
  },
});

describe("external models in the catalog", () => {
  it("take a url, the provider's model name and one key file, with no profiles or source", () => {
    const result = parseModelDefinition(external());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.profiles).toEqual([]);
    expect(result.model.source).toBe("https://api.example.com/v1");
    expect(externalKeyFiles(must(result.model.external, "the external block"))).toEqual([
      { file: "/etc/llmgw/openai.key", weight: 1 },
    ]);
    // What the catalog stores is parsed again when it is read back.
    expect(parseModelDefinition(result.model)).toEqual(result);
  });

  it("take several key files with weights (1 when not given)", () => {
    const result = parseModelDefinition(
      external({
        api_key_file: undefined,
        api_key_files: [{ file: "/k/one", weight: 3 }, { file: "/k/two" }],
      }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(externalKeyFiles(must(result.model.external, "the external block"))).toEqual([
      { file: "/k/one", weight: 3 },
      { file: "/k/two", weight: 1 },
    ]);
  });

  it("take no key file at all: the key is then kept sealed in the store", () => {
    const result = parseModelDefinition(external({ api_key_file: undefined }));
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(externalKeyFiles(must(result.model.external, "the external block"))).toEqual([]);
  });

  it("refuse both key forms, a relative path and a duplicate file, saying how to fix it", () => {
    expect(errorsOf(external({ api_key_files: [{ file: "/k/a" }] }))).toEqual([
      "external: give api_key_file or api_key_files, not both",
    ]);
    expect(errorsOf(external({ api_key_file: "keys/openai" }))).toEqual([
      "external.api_key_file: give the key file as an absolute path on the control plane",
    ]);
    expect(
      errorsOf(
        external({ api_key_file: undefined, api_key_files: [{ file: "/k/a" }, { file: "/k/a" }] }),
      ),
    ).toEqual(["external.api_key_files: a key file is listed twice; list each once"]);
    expect(
      errorsOf(external({ api_key_file: undefined, api_key_files: [{ file: "/k/a", weight: 0 }] })),
    ).toEqual(["external.api_key_files[0].weight: a key's weight must be above 0"]);
  });

  it("refuse a bad url, a missing provider model, profiles, a source and on_demand", () => {
    expect(errorsOf(external({ url: "ftp://x.example.com" }))).toEqual([
      "external.url: external.url must be an http:// or https:// URL",
    ]);
    expect(errorsOf(external({ model: "" }))).toEqual([
      "external.model: external.model is the provider's name for the model",
    ]);
    expect(
      errorsOf({
        ...external(),
        source: "Qwen/Qwen2.5-7B-Instruct",
        on_demand: true,
        profiles: [{ name: "cpu", engine: "sim" }],
      }),
    ).toEqual([
      "profiles: an external model is served by its provider and has no profiles; remove them",
      "source: an external model has no source; its provider holds the weights",
      "on_demand: an external model is never placed, so it cannot be on demand",
    ]);
    expect(errorsOf({ ...external(), external: { ...external().external, extra: 1 } })).toEqual([
      "external: unknown field extra; remove it or check the spelling",
    ]);
  });

  it("still require a source and a profile of a model that is not external", () => {
    expect(errorsOf({ name: "local" })).toEqual([
      "source: give the weights' source (or make the model external)",
      "profiles: give at least one profile",
    ]);
  });
});

describe("a model kept in this cluster", () => {
  it("takes residency local and no_store, and refuses another residency", () => {
    const result = parseModelDefinition({ ...external(), residency: "local", no_store: true });
    expect(result.ok && [result.model.residency, result.model.no_store]).toEqual(["local", true]);
    expect(errorsOf({ ...external(), residency: "eu" })).toEqual([
      "residency: residency is any or local",
    ]);
  });
});
