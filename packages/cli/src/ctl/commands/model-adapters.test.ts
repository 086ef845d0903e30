import { describe, expect, it } from "vitest";
import { UsageError } from "../args";
import { adaptersTable, changedAdapters } from "./model-adapters";

const SQL = { name: "sql", source: "/lora/sql.safetensors" };

describe("model adapters", () => {
  it("adds an adapter with its rank, and removes one by name", () => {
    expect(
      changedAdapters("qwen", [SQL], ["add", "legal", "acme/legal-lora"], { rank: "16" }),
    ).toEqual([SQL, { name: "legal", source: "acme/legal-lora", rank: 16 }]);
    expect(changedAdapters("qwen", [SQL], ["remove", "sql"], {})).toEqual([]);
  });

  it("refuses an adapter added twice, one that is not there, and a missing source", () => {
    expect(() => changedAdapters("qwen", [SQL], ["add", "sql", "/x.safetensors"], {})).toThrow(
      'model "qwen" already has adapter "sql"',
    );
    expect(() => changedAdapters("qwen", [SQL], ["remove", "legal"], {})).toThrow(
      'model "qwen" has no adapter "legal"; it has sql',
    );
    expect(() => changedAdapters("qwen", [], ["add", "sql"], {})).toThrow(UsageError);
    expect(() => changedAdapters("qwen", [], ["add", "sql", "/x"], { rank: "0" })).toThrow(
      "--rank takes a whole number of at least 1",
    );
  });

  it("lists each adapter as the name clients ask for", () => {
    const table = adaptersTable("qwen", [{ ...SQL, rank: 8 }]);
    expect(table).toMatch(/ASK FOR\s+SOURCE\s+RANK/);
    expect(table).toMatch(/qwen:sql\s+\/lora\/sql\.safetensors\s+8/);
    expect(adaptersTable("qwen", [])).toMatch(/has no adapters; add one with/);
  });
});
