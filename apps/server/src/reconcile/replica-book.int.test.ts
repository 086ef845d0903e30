// The replica book on a real PGlite store and a real PostgreSQL: a pass's placements are written
// together (more rows than one statement takes, so the transaction's chunks are exercised), an
// upsert of a known id takes every new value, and a failed batch saves none of its rows.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { asc, openStore, replicaShards, replicas, type Store } from "@llmgw/db";
import { startPostgres, tempDir } from "@llmgw/testing";
import { ReplicaBook, type ReplicaRecord } from "./replica-book";

let store: Store;
const nowMs = Date.parse("2030-06-01T00:00:00Z");
const logged: string[] = [];

function record(id: string, change: Partial<ReplicaRecord> = {}): ReplicaRecord {
  return {
    id,
    model: "qwen",
    profile: "h100",
    modelRevision: 1,
    nodeId: "gpu-1",
    gpuIndexes: [0, 1],
    phase: "placing",
    message: "",
    createdAtMs: nowMs,
    engine: "vllm",
    host: null,
    port: null,
    fetchProgress: null,
    phaseChangedAtMs: nowMs,
    lastUsedAtMs: null,
    isLostStopped: false,
    lastSentMs: 0,
    ...change,
  };
}

const STORES: [string, () => Promise<Store>][] = [
  [
    "PGlite",
    async () => openStore({ kind: "pglite", dataDir: (await tempDir("replica-book")).path }),
  ],
  ["PostgreSQL", async () => openStore({ kind: "postgres", url: (await startPostgres()).url })],
];

describe.each(STORES)("replica book on %s", (_name, open) => {
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => store?.close());
  beforeEach(async () => {
    await store.db.delete(replicas);
    logged.length = 0;
  });

  it("writes a pass's placements together, every row as given", async () => {
    const book = await ReplicaBook.open(store.db, (line) => logged.push(line));
    const placed = Array.from({ length: 12_001 }, (_, i) =>
      record(`r${String(i).padStart(5, "0")}`, { nodeId: `gpu-${i % 7}`, gpuIndexes: [i % 8] }),
    );
    await book.insertMany(placed);
    await book.flush();
    const rows = await store.db.select().from(replicas).orderBy(asc(replicas.id));
    expect(rows).toHaveLength(12_001);
    expect(rows[12_000]).toMatchObject({
      id: "r12000",
      nodeId: "gpu-2",
      gpuIndexes: [0],
      phase: "placing",
      engine: "vllm",
      modelRevision: 1,
    });
    expect(book.get("r00007")?.nodeId).toBe("gpu-0");
    expect(logged).toEqual([]);
  });

  it("replaces every column of a known id, as the one-row upsert did", async () => {
    const book = await ReplicaBook.open(store.db, (line) => logged.push(line));
    await book.insert(record("r1"));
    const later = nowMs + 60_000;
    await book.insertMany([
      record("r1", {
        nodeId: "gpu-9",
        gpuIndexes: [5],
        phase: "ready",
        message: "up",
        host: "10.0.0.9",
        port: 8001,
        modelRevision: 2,
        phaseChangedAtMs: later,
        lastUsedAtMs: later,
      }),
      record("r2"),
    ]);
    const reopened = await ReplicaBook.open(store.db, () => {});
    expect(reopened.get("r1")).toMatchObject({
      nodeId: "gpu-9",
      gpuIndexes: [5],
      phase: "ready",
      message: "up",
      host: "10.0.0.9",
      port: 8001,
      modelRevision: 2,
      phaseChangedAtMs: later,
      lastUsedAtMs: later,
    });
    expect(
      reopened
        .all()
        .map((r) => r.id)
        .sort(),
    ).toEqual(["r1", "r2"]);
  });

  it("writes any text as given: quotes, backslashes, commas, braces, NULL, blanks, line breaks", async () => {
    const book = await ReplicaBook.open(store.db, (line) => logged.push(line));
    // Each column travels as one array literal: text that looks like its syntax must stay text.
    const awkward = [
      'say "hi"',
      "back\\slash\\",
      "a,b",
      "{x}",
      "NULL",
      "null",
      " padded ",
      "",
      "two\nlines\ttab",
      "ünïcode ✓ 模型",
      '\\"',
    ];
    await book.insertMany(
      awkward.map((text, i) =>
        record(`odd-${i}`, { model: text, message: text, host: text, nodeId: `n,${text}` }),
      ),
    );
    await book.flush();
    const rows = await store.db.select().from(replicas).orderBy(asc(replicas.id));
    expect(rows.map((r) => [r.model, r.message, r.host, r.nodeId])).toEqual(
      [...awkward.entries()]
        .sort(([a], [b]) => (`odd-${a}` < `odd-${b}` ? -1 : 1))
        .map(([, text]) => [text, text, text, `n,${text}`]),
    );
    expect(logged).toEqual([]);
  });

  it("saves none of a batch that fails, and says which write failed", async () => {
    const book = await ReplicaBook.open(store.db, (line) => logged.push(line));
    // The same id twice in one statement is refused by PostgreSQL; it is in the second of the two
    // statements, so the first one's 5,000 rows must be rolled back with it.
    const placed = Array.from({ length: 6_000 }, (_, i) => record(`r${i}`));
    placed.push(record("r5500"));
    await book.insertMany(placed);
    expect(await store.db.select().from(replicas)).toEqual([]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^could not save 6001 placed replicas: /);
  });

  it("writes nothing a lost lease queued: a resumed old leader cannot overwrite the new one's rows", async () => {
    const book = await ReplicaBook.open(store.db, (line) => logged.push(line));
    await book.insert(record("kept", { phase: "ready" }));
    // The new leader stops the replica; the old one, frozen, still holds it as ready.
    await store.db.update(replicas).set({ phase: "stopped" });
    let leads = false;
    book.guardWrites(() => Promise.resolve(leads));
    await book.update("kept", { phase: "ready", message: "stale" }, nowMs + 1);
    await book.insert(record("stale-placement"));
    const rows = await store.db.select().from(replicas).orderBy(asc(replicas.id));
    expect(rows.map((r) => [r.id, r.phase])).toEqual([["kept", "stopped"]]);
    expect(logged.filter((line) => line.includes("no longer leads"))).toHaveLength(2);
    leads = true;
    await book.update("kept", { phase: "draining" }, nowMs + 2);
    expect((await store.db.select().from(replicas))[0]?.phase).toBe("draining");
  });

  it("keeps every shard of a replica spanning nodes, each with its own phase, and forgets them with it", async () => {
    const book = await ReplicaBook.open(store.db, (line) => logged.push(line));
    const shard = (rank: number, nodeId: string) => ({
      rank,
      nodeId,
      gpuIndexes: [0, 1],
      phase: "placing" as const,
      message: "",
      phaseChangedAtMs: nowMs,
      lastSentMs: 0,
    });
    await book.insert(record("big", { shards: [shard(0, "gpu-1"), shard(1, "gpu-2")] }));
    await book.updateShard("big", 1, { phase: "failed", message: "worker exited" }, nowMs + 5);
    await book.flush();
    const reopened = await ReplicaBook.open(store.db, () => {});
    expect(reopened.get("big")?.shards).toMatchObject([
      { rank: 0, nodeId: "gpu-1", phase: "placing" },
      { rank: 1, nodeId: "gpu-2", phase: "failed", message: "worker exited" },
    ]);
    expect(reopened.onNode("gpu-2").map((r) => r.id)).toEqual(["big"]);
    await reopened.update("big", { phase: "stopped" }, nowMs + 10);
    await reopened.prune(nowMs + 20);
    await reopened.flush();
    expect(await store.db.select().from(replicaShards)).toEqual([]);
    expect(reopened.onNode("gpu-2")).toEqual([]);
    expect(logged).toEqual([]);
  });

  it("answers a model's and a node's replicas from its indexes as records come, reload and go", async () => {
    const book = await ReplicaBook.open(store.db, (line) => logged.push(line));
    await book.insertMany([
      record("a1", { model: "a", nodeId: "gpu-1" }),
      record("a2", { model: "a", nodeId: "gpu-2" }),
      record("b1", { model: "b", nodeId: "gpu-1" }),
    ]);
    await book.flush();
    const ids = (records: ReplicaRecord[]) => records.map((r) => r.id).sort();
    expect(ids(book.ofModel("a"))).toEqual(["a1", "a2"]);
    expect(ids(book.onNode("gpu-1"))).toEqual(["a1", "b1"]);
    // A standby's book follows another's writes by reloading: added and removed rows both show.
    const standby = await ReplicaBook.open(store.db, () => {});
    await book.insert(record("b2", { model: "b", nodeId: "gpu-3" }));
    await book.update("a1", { phase: "stopped" }, nowMs);
    await book.prune(nowMs + 1);
    await book.flush();
    await standby.reload();
    for (const each of [book, standby]) {
      expect(ids(each.ofModel("a"))).toEqual(["a2"]);
      expect(ids(each.ofModel("b"))).toEqual(["b1", "b2"]);
      expect(ids(each.onNode("gpu-1"))).toEqual(["b1"]);
      expect(ids(each.onNode("gpu-3"))).toEqual(["b2"]);
      expect(each.ofModel("nobody")).toEqual([]);
    }
  });

  it("tells a watcher of every record, then of each change as it is made, on the leader and a standby", async () => {
    const book = await ReplicaBook.open(store.db, (line) => logged.push(line));
    await book.insert(record("a1", { model: "a" }));
    const tellInto =
      (told: string[]) =>
      (id: string, r: ReplicaRecord | undefined): void =>
        void told.push(r ? `${id} ${r.model} ${r.phase} ${r.port ?? "-"}` : `${id} gone`);
    const told: string[] = [];
    const unwatch = book.watch(tellInto(told));
    expect(told.splice(0)).toEqual(["a1 a placing -"]);
    await book.insertMany([record("b1", { model: "b" })]);
    await book.update("a1", { phase: "ready", host: "10.0.0.1", port: 8001 }, nowMs);
    await book.update("a1", { phase: "stopped" }, nowMs + 1);
    await book.prune(nowMs + 2);
    await book.flush();
    expect(told.splice(0)).toEqual([
      "b1 b placing -",
      "a1 a ready 8001",
      "a1 a stopped 8001",
      "a1 gone",
    ]);
    // A standby hears of another control plane's writes when it reloads them.
    const standby = await ReplicaBook.open(store.db, () => {});
    const toldStandby: string[] = [];
    standby.watch(tellInto(toldStandby));
    expect(toldStandby.splice(0)).toEqual(["b1 b placing -"]);
    await book.update("b1", { phase: "ready", host: "10.0.0.2", port: 8002 }, nowMs + 3);
    await book.insert(record("c1", { model: "c" }));
    await book.flush();
    expect(toldStandby).toEqual([]);
    await standby.reload();
    expect(toldStandby.sort()).toEqual(["b1 b ready 8002", "c1 c placing -"]);
    expect(told.splice(0)).toEqual(["b1 b ready 8002", "c1 c placing -"]);
    unwatch();
    await book.update("c1", { phase: "starting" }, nowMs + 4);
    await book.flush();
    expect(told).toEqual([]);
    expect(logged).toEqual([]);
  });
});
