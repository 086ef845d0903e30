import { describe, expect, it } from "vitest";
import { adaptersOf, rankOf, withAdapter, withoutAdapter } from "./adapters";

const definition = { name: "qwen", adapters: [{ name: "sql", source: "/l/sql.safetensors" }] };

describe("console adapters", () => {
  it("adds and removes one adapter, keeping the rest of the definition", () => {
    const added = withAdapter(definition, { name: "legal", source: "acme/legal", rank: 8 });
    expect(adaptersOf(added).map((a) => a.name)).toEqual(["sql", "legal"]);
    expect(added.name).toBe("qwen");
    expect(adaptersOf(withoutAdapter(added, "sql")).map((a) => a.name)).toEqual(["legal"]);
    expect(adaptersOf({ name: "plain" })).toEqual([]);
  });

  it("reads an empty rank as none given", () => {
    expect(rankOf(" ")).toBeUndefined();
    expect(rankOf("16")).toBe(16);
  });
});
