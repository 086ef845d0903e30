import { describe, expect, it } from "vitest";
import { KEY_CACHE_DEFAULTS, KeyCache } from "./key-cache";

const refused = () => Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });

/** A store whose answer, failure or silence the test sets; counts the queries it was sent. */
function fakeStore() {
  const state = {
    queries: 0,
    row: "v1" as string | undefined,
    mode: "answers" as "answers" | "refuses" | "hangs" | "fails" | "held",
    /** In "held" mode: answers the query in flight with the row as it was when it was asked. */
    release: () => undefined as void,
  };
  const load = (): Promise<string | undefined> => {
    state.queries += 1;
    if (state.mode === "held") {
      const rowWhenAsked = state.row;
      return new Promise((resolve) => {
        state.release = () => resolve(rowWhenAsked);
      });
    }
    if (state.mode === "refuses") return Promise.reject(refused());
    if (state.mode === "fails") return Promise.reject(new Error("syntax error at or near"));
    if (state.mode === "hangs") return new Promise(() => undefined);
    return Promise.resolve(state.row);
  };
  return { state, load };
}

function cacheOver(store: ReturnType<typeof fakeStore>) {
  const clock = { ms: 1_000_000 };
  const cache = new KeyCache(store.load, () => clock.ms, {
    ...KEY_CACHE_DEFAULTS,
    waitMs: 20,
    lookupMaxMs: 50,
  });
  return { cache, clock };
}

describe("KeyCache", () => {
  it("asks the store once per 5 s, and sees a change (a revocation) once that has passed", async () => {
    const store = fakeStore();
    const { cache, clock } = cacheOver(store);
    expect(await cache.get("p")).toBe("v1");
    store.state.row = "revoked";
    clock.ms += 3_999;
    expect(await cache.get("p")).toBe("v1");
    expect(store.state.queries).toBe(1);
    clock.ms += 1_001;
    expect(await cache.get("p")).toBe("revoked");
  });

  it("renews an answer in its last second in the background, while requests use it without waiting", async () => {
    const store = fakeStore();
    const { cache, clock } = cacheOver(store);
    await cache.get("p");
    clock.ms += 3_999;
    expect(await cache.get("p")).toBe("v1");
    expect(store.state.queries).toBe(1);
    store.state.mode = "hangs";
    clock.ms += 1;
    const waitedOn = await Promise.race([
      cache.get("p"),
      new Promise((resolve) => setTimeout(() => resolve("waited"), 10)),
    ]);
    expect(waitedOn).toBe("v1");
    expect(await cache.get("p")).toBe("v1");
    expect(store.state.queries).toBe(2);
  });

  it("refuses a key revoked by another control plane within 5 s of the revoke, renewals or not", async () => {
    const store = fakeStore();
    const { cache, clock } = cacheOver(store);
    await cache.get("p");
    clock.ms += 4_000;
    // A renewal asked before the revoke and answered after it: its answer is as old as the asking.
    store.state.mode = "held";
    expect(await cache.get("p")).toBe("v1");
    clock.ms += 500;
    store.state.row = "revoked";
    clock.ms += 300;
    store.state.release();
    store.state.mode = "answers";
    await new Promise((resolve) => setImmediate(resolve));
    clock.ms += 4_200;
    expect(await cache.get("p")).toBe("revoked");
  });

  it("does not let a renewal that read the row before a revoke here bring the key back", async () => {
    const store = fakeStore();
    const { cache, clock } = cacheOver(store);
    await cache.get("p");
    clock.ms += 4_500;
    store.state.mode = "held";
    expect(await cache.get("p")).toBe("v1");
    store.state.row = "revoked";
    cache.drop("p");
    store.state.release();
    store.state.mode = "answers";
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.get("p")).toBe("revoked");
  });

  it("answers from the last good answer while the store refuses connections or hangs, up to 10 minutes", async () => {
    const store = fakeStore();
    const { cache, clock } = cacheOver(store);
    await cache.get("p");
    store.state.mode = "refuses";
    clock.ms += 60_000;
    expect(await cache.get("p")).toBe("v1");
    store.state.mode = "hangs";
    clock.ms += 60_000;
    const startedMs = Date.now();
    expect(await cache.get("p")).toBe("v1");
    expect(Date.now() - startedMs).toBeLessThan(1_000);
    clock.ms += 8 * 60_000;
    await expect(cache.get("p")).rejects.toThrow(/did not answer a key lookup within 50 ms/);
  });

  it("refuses a prefix it never saw while the store is away, and does not hide a refused statement", async () => {
    const store = fakeStore();
    const { cache, clock } = cacheOver(store);
    store.state.mode = "refuses";
    await expect(cache.get("new")).rejects.toThrow(/ECONNREFUSED/);
    store.state.mode = "answers";
    await cache.get("p");
    store.state.mode = "fails";
    clock.ms += 6_000;
    await expect(cache.get("p")).rejects.toThrow(/syntax error/);
  });

  it("sends one query for many requests of one prefix while the store is slow", async () => {
    const store = fakeStore();
    const { cache, clock } = cacheOver(store);
    await cache.get("p");
    store.state.mode = "hangs";
    clock.ms += 6_000;
    await Promise.all(Array.from({ length: 20 }, () => cache.get("p")));
    expect(store.state.queries).toBe(2);
    // A query unanswered past lookupMaxMs (50 ms here) is given up: the next request asks again.
    await new Promise((resolve) => setTimeout(resolve, 60));
    store.state.mode = "answers";
    store.state.row = "v2";
    expect(await cache.get("p")).toBe("v2");
    expect(store.state.queries).toBe(3);
  });

  it("forgets a dropped prefix at once and keeps at most entriesMax prefixes", async () => {
    const store = fakeStore();
    const clock = { ms: 0 };
    const cache = new KeyCache(store.load, () => clock.ms, {
      ...KEY_CACHE_DEFAULTS,
      entriesMax: 2,
    });
    await cache.get("a");
    cache.drop("a");
    store.state.row = "v2";
    expect(await cache.get("a")).toBe("v2");
    await cache.get("b");
    await cache.get("c");
    const before = store.state.queries;
    await cache.get("a"); // The oldest, pushed out by c: asked again.
    expect(store.state.queries).toBe(before + 1);
  });
});
