import { parseModelDefinition, type ModelDefinition, type ScopeQuota } from "@llmgw/domain";
import { describe, expect, it } from "vitest";
import { ownerOf, QuotaBook } from "./quota-book";

function definition(owner?: Record<string, string>): ModelDefinition {
  const parsed = parseModelDefinition({
    name: "m",
    source: "org/m",
    profiles: [{ name: "p", engine: "sim" }],
    ...(owner ? { owner } : {}),
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.model;
}

const TREE: Record<string, string[]> = {
  "team:ml": ["org:acme", "team:ml"],
  "project:search": ["org:acme", "team:ml", "project:search"],
};

function book(quotas: ScopeQuota[] = [], fail = new Set<string>()) {
  const asked: string[] = [];
  const resolver = {
    chain: (owner: string) => {
      asked.push(owner);
      if (fail.has(owner)) return Promise.reject(new Error("store away"));
      return Promise.resolve(TREE[owner] ?? [owner]);
    },
  };
  const logged: string[] = [];
  const quotaBook = new QuotaBook(
    () => Promise.resolve(quotas),
    resolver,
    (line) => logged.push(line),
  );
  return { quotaBook, asked, logged };
}

describe("QuotaBook", () => {
  it("writes a definition's owner as a scope", () => {
    expect(ownerOf(definition({ team: "ml" }))).toBe("team:ml");
    expect(ownerOf(definition({ project: "search" }))).toBe("project:search");
    expect(ownerOf(definition({ org: "acme" }))).toBe("org:acme");
    expect(ownerOf(definition())).toBeUndefined();
  });

  it("resolves each owner once, up the tree, and gives a model without one no chain", async () => {
    const { quotaBook, asked } = book();
    const models = [definition({ team: "ml" }), definition({ team: "ml" }), definition()];
    await quotaBook.resolve(models);
    await quotaBook.resolve(models);
    expect(asked).toEqual(["team:ml"]);
    expect(quotaBook.chainOf(definition({ team: "ml" }))).toEqual(["org:acme", "team:ml"]);
    expect(quotaBook.chainOf(definition())).toEqual([]);
  });

  it("lets an owner not yet resolved stand alone", () => {
    const { quotaBook } = book();
    expect(quotaBook.chainOf(definition({ project: "search" }))).toEqual(["project:search"]);
  });

  it("reads quotas and every owner's chain again on reload", async () => {
    const quota = { scope: "team:ml", guarantee: { gpus: { L40S: 2 } }, limit: null };
    const { quotaBook, asked } = book([quota]);
    await quotaBook.resolve([definition({ team: "ml" })]);
    await quotaBook.reload([definition({ project: "search" })]);
    expect(quotaBook.quotas()).toEqual([quota]);
    expect(asked.sort()).toEqual(["project:search", "team:ml", "team:ml"]);
  });

  it("keeps the owner alone and says why when the tree cannot be read", async () => {
    const { quotaBook, logged } = book([], new Set(["team:ml"]));
    await quotaBook.resolve([definition({ team: "ml" })]);
    expect(quotaBook.chainOf(definition({ team: "ml" }))).toEqual(["team:ml"]);
    expect(logged).toEqual(["quotas: resolving owner team:ml failed: store away"]);
  });
});
