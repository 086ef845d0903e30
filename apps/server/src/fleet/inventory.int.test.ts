// Node last-seen times on a real PGlite store and a real PostgreSQL: the liveness sweep's batch
// (more nodes than one statement takes, so the chunks are exercised) lands every node's own time,
// leaves nodes outside the batch alone, and an unknown node id in it changes nothing. A burst of
// registrations (a reconnect storm) is written in batches with the same result as one by one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { asc, eq, gpus, nodes, openStore, sql, type Store } from "@llmgw/db";
import { RegisterSchema, type Register } from "@llmgw/proto";
import { startPostgres, tempDir } from "@llmgw/testing";
import { createInventoryWriter } from "./inventory";

const NODES = 5_200;
const STORES: [string, () => Promise<Store>][] = [
  ["PGlite", async () => openStore({ kind: "pglite", dataDir: (await tempDir("inventory")).path })],
  ["PostgreSQL", async () => openStore({ kind: "postgres", url: (await startPostgres()).url })],
];

/** An inventory writer on the store, with no live nodes, the clock at `nowMs`, logging to a list. */
function writerOf(db: Parameters<typeof createInventoryWriter>[0], nowMs: number) {
  const logged: string[] = [];
  const writer = createInventoryWriter(
    db,
    { get: () => undefined },
    () => nowMs,
    (line) => logged.push(line),
    { changed: () => undefined },
  );
  return { writer, logged };
}

describe.each(STORES)("node last-seen times on %s", (_name, open) => {
  let store: Store;
  const start = Date.parse("2030-06-01T00:00:00Z");
  const id = (i: number) => `node-${String(i).padStart(5, "0")}`;

  beforeAll(async () => {
    store = await open();
    const rows = Array.from({ length: NODES }, (_, i) => ({
      id: id(i),
      name: id(i),
      agentVersion: "1.0.0",
      host: { cpuModel: "", cpuCores: 0, os: "", arch: "", driverVersion: null },
      memoryBytesTotal: 0,
      diskBytesTotal: 0,
      lastSeenAt: new Date(start),
    }));
    for (let i = 0; i < rows.length; i += 1_000)
      await store.db.insert(nodes).values(rows.slice(i, i + 1_000));
  });
  afterAll(async () => store?.close());

  it("writes each node's own time in batches and touches no other node", async () => {
    const { writer, logged } = writerOf(store.db, start);
    // Every node but the last, each with a time of its own, and one id the store never heard of.
    const seen = Array.from({ length: NODES - 1 }, (_, i) => ({
      nodeId: id(i),
      at: new Date(start + (i + 1) * 1_000),
    }));
    await writer.lastSeen([...seen, { nodeId: "never-registered", at: new Date(start) }]);
    expect(logged).toEqual([]);

    const stored = await store.db
      .select({ id: nodes.id, lastSeenAt: nodes.lastSeenAt })
      .from(nodes)
      .orderBy(asc(nodes.id));
    expect(stored).toHaveLength(NODES);
    for (let i = 0; i < NODES - 1; i++)
      expect(stored[i]?.lastSeenAt.getTime(), id(i)).toBe(start + (i + 1) * 1_000);
    expect(stored[NODES - 1]?.lastSeenAt.getTime()).toBe(start);
  });

  it("saves a burst of registrations in batches as it would one by one", async () => {
    const { writer, logged } = writerOf(store.db, start);
    const reg = (i: number) => `reg-${String(i).padStart(4, "0")}`;
    const register = (nodeId: string, name: string, uuids: string[]): Register =>
      create(RegisterSchema, {
        nodeId,
        nodeName: name,
        agentVersion: "2.0.0",
        hardware: {
          gpus: uuids.map((uuid, index) => ({ uuid, index, name: "H100", memoryBytesTotal: 80n })),
        },
      });
    const cardsOf = (i: number) => Array.from({ length: 8 }, (_, card) => `GPU-${reg(i)}-${card}`);
    // More than one batch; node 0 twice (the later one wins), node 2 takes one of node 1's cards,
    // and a node the store already has is written over.
    const burst = [
      ...Array.from({ length: 700 }, (_, i) => register(reg(i), reg(i), cardsOf(i))),
      register(reg(0), "renamed", cardsOf(0).slice(0, 4)),
      register(reg(2), reg(2), [...cardsOf(2), `GPU-${reg(1)}-7`]),
      register(id(0), "re-registered", []),
    ];
    await Promise.all(burst.map((each) => writer.registered(each)));
    expect(logged).toEqual([]);

    const stored = await store.db
      .select({ id: nodes.id, name: nodes.name })
      .from(nodes)
      .where(sql`${nodes.id} like ${"reg-%"}`);
    expect(stored).toHaveLength(700);
    const [first] = await store.db
      .select()
      .from(nodes)
      .where(eq(nodes.id, reg(0)));
    expect(first?.name).toBe("renamed");
    const cards = await store.db
      .select()
      .from(gpus)
      .where(sql`${gpus.nodeId} like ${"reg-%"}`);
    expect(cards).toHaveLength(700 * 8 - 4);
    const moved = cards.find((card) => card.uuid === `GPU-${reg(1)}-7`);
    expect(moved?.nodeId).toBe(reg(2));
    const [old] = await store.db
      .select()
      .from(nodes)
      .where(eq(nodes.id, id(0)));
    expect(old?.name).toBe("re-registered");
  });
});
