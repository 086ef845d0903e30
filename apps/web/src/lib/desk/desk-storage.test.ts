import { describe, expect, it } from "vitest";
import { deskKey, readDesk, writeDesk, type DeskStore } from "./desk-storage";
import { lastPageOrLanding, rememberLastPage } from "./last-page";

function mapStore(): DeskStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => map.set(key, value),
  };
}

const isNumber = (value: unknown): value is number => typeof value === "number";

describe("the desk", () => {
  it("keeps each person's values apart on one device", () => {
    const store = mapStore();
    writeDesk("split.cluster", 30, store, "user-a");
    writeDesk("split.cluster", 55, store, "user-b");
    expect(readDesk("split.cluster", isNumber, 0, store, "user-a")).toBe(30);
    expect(readDesk("split.cluster", isNumber, 0, store, "user-b")).toBe(55);
    expect([...store.map.keys()].sort()).toEqual([
      "llmgw.desk:user-a:split.cluster",
      "llmgw.desk:user-b:split.cluster",
    ]);
  });

  it("keeps nothing and reads the fallback while nobody is signed in", () => {
    const store = mapStore();
    writeDesk("split.cluster", 30, store, null);
    expect(store.map.size).toBe(0);
    store.setItem(deskKey("user-a", "split.cluster"), "30");
    expect(readDesk("split.cluster", isNumber, 7, store, null)).toBe(7);
  });

  it("falls back on broken JSON and on values of the wrong shape", () => {
    const store = mapStore();
    store.setItem(deskKey("u", "a"), "{not json");
    store.setItem(deskKey("u", "b"), '"a string"');
    expect(readDesk("a", isNumber, 1, store, "u")).toBe(1);
    expect(readDesk("b", isNumber, 2, store, "u")).toBe(2);
  });

  it("does not let an id reach into another person's keys", () => {
    expect(deskKey("a:b", "x")).toBe("llmgw.desk:a%3Ab:x");
    expect(deskKey("a:b", "x")).not.toBe(deskKey("a", "b:x"));
  });
});

describe("the last page", () => {
  it("sends / back to the last page, or to Cluster when there is none", () => {
    const store = mapStore();
    expect(lastPageOrLanding(store, "u")).toBe("/cluster");
    rememberLastPage("/nodes/gpu-3/logs?since=5m", store, "u");
    expect(lastPageOrLanding(store, "u")).toBe("/nodes/gpu-3/logs?since=5m");
    expect(lastPageOrLanding(store, "someone-else")).toBe("/cluster");
  });

  it("never keeps or follows a path that leads off the console, nor / itself", () => {
    const store = mapStore();
    rememberLastPage("/nodes", store, "u");
    for (const path of ["/", "//evil.example", "https://evil.example/", "/\\evil.example"])
      rememberLastPage(path, store, "u");
    expect(lastPageOrLanding(store, "u")).toBe("/nodes");
    store.setItem(deskKey("u", "lastPage"), JSON.stringify("//evil.example"));
    expect(lastPageOrLanding(store, "u")).toBe("/cluster");
  });
});
