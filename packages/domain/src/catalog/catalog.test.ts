import { describe, expect, it } from "vitest";
import { EMPTY_CATALOG, catalogWith, catalogWithout, createCatalog } from "./catalog";

const cpuModel = (name: string) => ({
  name,
  source: `/models/${name}.gguf`,
  profiles: [{ name: "cpu", engine: "llamacpp" }],
});

describe("createCatalog", () => {
  it("builds a frozen catalog sorted by name with lookup", () => {
    const result = createCatalog([cpuModel("b"), cpuModel("a")]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { catalog } = result;
    expect(catalog.models.map((model) => model.name)).toEqual(["a", "b"]);
    expect(catalog.get("b")?.source).toBe("/models/b.gguf");
    expect(Object.isFrozen(catalog)).toBe(true);
    expect(Object.isFrozen(catalog.models)).toBe(true);
    expect(Object.isFrozen(catalog.models[0]?.profiles[0]?.args)).toBe(true);
    expect(() => (catalog.models as unknown as unknown[]).push(cpuModel("c"))).toThrow();
  });

  it("refuses a set with two models of one name", () => {
    const result = createCatalog([cpuModel("a"), cpuModel("a")]);
    expect(result).toEqual({
      ok: false,
      errors: ['model "a" is defined twice; remove one or rename it'],
    });
  });

  it("refuses a set with an invalid model, naming it", () => {
    const result = createCatalog([cpuModel("a"), { ...cpuModel("b"), source: "/m/b.bin" }]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]).toMatch(/^model "b": source: .*pickle/);
  });
});

describe("catalogWith and catalogWithout", () => {
  it("return new catalogs and leave the old one as it was", () => {
    const first = catalogWith(EMPTY_CATALOG, cpuModel("a"));
    if (!first.ok) throw new Error(first.errors.join("; "));
    const second = catalogWith(first.catalog, { ...cpuModel("a"), replicas: { min: 2, max: 2 } });
    if (!second.ok) throw new Error(second.errors.join("; "));
    expect(first.catalog.get("a")?.replicas.min).toBe(1);
    expect(second.catalog.get("a")?.replicas.min).toBe(2);
    expect(second.catalog.revision).toBe(first.catalog.revision + 1);
    const third = catalogWithout(second.catalog, "a");
    expect(third.ok && third.catalog.models.length).toBe(0);
    expect(second.catalog.models.length).toBe(1);
  });

  it("refuses removing a model that is not there and adding an invalid one", () => {
    expect(catalogWithout(EMPTY_CATALOG, "x")).toEqual({
      ok: false,
      errors: ['model "x" is not in the catalog'],
    });
    expect(catalogWith(EMPTY_CATALOG, { name: "x" }).ok).toBe(false);
  });
});
