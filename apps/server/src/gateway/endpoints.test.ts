// The endpoint pool as the replica book tells it of changes: which replicas serve, what live state
// survives a change, external keys, and that a request's lookup reads nothing of other models.
import { createCatalog, DEFAULT_BREAKER_POLICY, type Catalog } from "@llmgw/domain";
import { describe, expect, it } from "vitest";
import type { ReplicaRecord, ReplicaWatcher } from "../reconcile/replica-book";
import { EndpointPool } from "./endpoints";

const NOW_MS = 1_000_000;

function replica(id: string, model: string, change: Partial<ReplicaRecord> = {}): ReplicaRecord {
  return {
    ...{ id, model, profile: "p", modelRevision: 1, nodeId: "n1", gpuIndexes: [0] },
    ...{ phase: "ready", message: "", createdAtMs: 0, engine: "vllm", host: "10.0.0.1" },
    ...{ port: 8000, fetchProgress: null, phaseChangedAtMs: 0, lastUsedAtMs: null },
    ...{ isLostStopped: false, lastSentMs: 0 },
    ...change,
  };
}

/** The replica book's telling, driven by hand: each set or drop is told as the book tells it. */
function feed(initial: ReplicaRecord[] = []) {
  const records = new Map(initial.map((r) => [r.id, r]));
  const watchers = new Set<ReplicaWatcher>();
  let gets = 0;
  return {
    get: (id: string) => {
      gets += 1;
      return records.get(id);
    },
    watch(watcher: ReplicaWatcher) {
      for (const record of records.values()) watcher(record.id, record);
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    set(record: ReplicaRecord) {
      records.set(record.id, record);
      for (const watcher of watchers) watcher(record.id, record);
    },
    drop(id: string) {
      records.delete(id);
      for (const watcher of watchers) watcher(id, undefined);
    },
    gets: () => gets,
  };
}

function catalogOf(models: unknown[]): Catalog {
  const built = createCatalog(models);
  if (!built.ok) throw new Error(built.errors.join("; "));
  return built.catalog;
}

const SERVED = catalogOf([
  {
    name: "qwen",
    source: "Qwen/Qwen2.5-7B-Instruct",
    profiles: [{ name: "p", engine: "vllm", gpu: "H100-80G" }],
  },
]);

function poolOver(book: ReturnType<typeof feed>, catalog = () => SERVED, sealed?: () => string) {
  const meta = () =>
    sealed
      ? {
          ...{ revision: 1, fallbacks: [], updatedAt: new Date(0), updatedBy: "t" },
          externalKeySealed: sealed(),
        }
      : undefined;
  return new EndpointPool(book, { current: catalog, meta }, DEFAULT_BREAKER_POLICY);
}

const ids = (endpoints: readonly { id: string }[]) => endpoints.map((e) => e.id);

describe("the endpoint pool, told by the replica book", () => {
  it("serves ready replicas with an address only, and follows each phase change", () => {
    const book = feed([replica("q1", "qwen"), replica("q2", "qwen", { phase: "starting" })]);
    const pool = poolOver(book);
    expect(ids(pool.endpointsOf("qwen"))).toEqual(["q1"]);
    book.set(replica("q2", "qwen", { port: 8001 }));
    expect(ids(pool.endpointsOf("qwen"))).toEqual(["q1", "q2"]);
    book.set(replica("q1", "qwen", { phase: "draining" }));
    expect(ids(pool.endpointsOf("qwen"))).toEqual(["q2"]);
    book.set(replica("q2", "qwen", { host: null, port: null }));
    expect(pool.endpointsOf("qwen")).toEqual([]);
    expect(pool.hasAvailable("qwen", NOW_MS)).toBe(false);
    book.set(replica("q1", "qwen"));
    book.drop("q2");
    expect(ids(pool.endpointsOf("qwen"))).toEqual(["q1"]);
    expect(ids(pool.replicaEndpoints())).toEqual(["q1"]);
    book.drop("q1");
    expect(pool.endpointsOf("qwen")).toEqual([]);
    expect(pool.choose("qwen", new Set(), NOW_MS)).toBeUndefined();
  });

  it("keeps an endpoint's live state through a change, and starts a moved one with a fresh breaker", () => {
    const book = feed([replica("q1", "qwen")]);
    const pool = poolOver(book);
    const [endpoint] = pool.endpointsOf("qwen");
    if (!endpoint) throw new Error("no endpoint");
    endpoint.inFlight = 3;
    endpoint.breaker.trip(NOW_MS);
    book.set(replica("q1", "qwen", { message: "still serving" }));
    expect(pool.endpointsOf("qwen")[0]).toBe(endpoint);
    expect(pool.hasAvailable("qwen", NOW_MS)).toBe(false);
    book.set(replica("q1", "qwen", { port: 9000 }));
    const [moved] = pool.endpointsOf("qwen");
    expect(moved?.baseUrl).toBe("http://10.0.0.1:9000");
    expect(moved?.inFlight).toBe(3);
    expect(pool.hasAvailable("qwen", NOW_MS)).toBe(true);
  });

  it("files a replica whose model changed under its new name only", () => {
    const book = feed([replica("r1", "qwen")]);
    const pool = poolOver(book);
    book.set(replica("r1", "qwen-2"));
    expect(pool.endpointsOf("qwen")).toEqual([]);
    expect(ids(pool.endpointsOf("qwen-2"))).toEqual(["r1"]);
    expect(pool.endpointsOf("qwen-2")[0]?.model).toBe("qwen-2");
  });

  it("answers an external model's keys, built again only when the catalog or its sealed key changes", () => {
    const external = (url: string) =>
      catalogOf([{ name: "gpt", external: { url, model: "gpt-4o-mini" } }]);
    let catalog = external("https://api.example.com/v1/");
    let sealed = "sealed-1";
    const pool = poolOver(
      feed([replica("g1", "gpt")]),
      () => catalog,
      () => sealed,
    );
    const first = pool.endpointsOf("gpt");
    expect(ids(first)).toEqual(["external:gpt#1"]);
    expect(first[0]).toMatchObject({ baseUrl: "https://api.example.com/v1", engine: "external" });
    expect(pool.endpointsOf("gpt")).toBe(first);
    sealed = "sealed-2";
    const resealed = pool.endpointsOf("gpt");
    expect(resealed).not.toBe(first);
    expect(resealed[0]?.external?.keySource).toBe("sealed:sealed-2");
    catalog = external("https://other.example.com/v1");
    expect(pool.endpointsOf("gpt")[0]?.baseUrl).toBe("https://other.example.com/v1");
    // The replica of the same name is not an endpoint while the catalog names a provider.
    expect(pool.replicaEndpoints().map((e) => e.id)).toEqual(["g1"]);
  });

  it("reads nothing of the 4,000 replicas of other models when a request looks up its own", () => {
    let reads = 0;
    let isCounting = false;
    // Every other model's record counts each field read once the book has told the pool of it.
    const others = Array.from(
      { length: 4_000 },
      (_, at) =>
        new Proxy(replica(`o${at}`, `other-${at % 50}`, { port: 10_000 + at }), {
          get(target, field, receiver) {
            if (isCounting) reads += 1;
            return Reflect.get(target, field, receiver) as unknown;
          },
        }),
    );
    const book = feed([...others, replica("q1", "qwen"), replica("q2", "qwen", { port: 8001 })]);
    const pool = poolOver(book);
    isCounting = true;
    const getsBefore = book.gets();
    const first = pool.endpointsOf("qwen");
    for (let request = 0; request < 200; request += 1) {
      expect(pool.endpointsOf("qwen")).toBe(first);
      expect(pool.hasAvailable("qwen", NOW_MS)).toBe(true);
      expect(pool.choose("qwen", new Set(), NOW_MS)?.model).toBe("qwen");
    }
    expect(ids(first)).toEqual(["q1", "q2"]);
    expect(reads).toBe(0);
    expect(book.gets()).toBe(getsBefore);
    expect(pool.replicaEndpoints()).toHaveLength(4_002);
  });
});
