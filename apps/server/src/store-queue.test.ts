import { describe, expect, it } from "vitest";
import { Registry } from "prom-client";
import { isStoreAway, StoreQueue } from "./store-queue";
import { registerStoreQueueMetrics } from "./store-queue-metrics";

const away = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

/** A store that fails its first `failures` writes with `error`, then keeps every batch it takes. */
function flakyStore(failures: number, error: () => Error = away) {
  const written: number[][] = [];
  let calls = 0;
  return {
    written,
    calls: () => calls,
    write: async (batch: number[]) => {
      calls += 1;
      if (calls <= failures) throw error();
      await Promise.resolve();
      written.push([...batch]);
    },
  };
}

function queueOver(store: ReturnType<typeof flakyStore>, options: { pendingMax?: number } = {}) {
  const lines: string[] = [];
  const queue = new StoreQueue<number>({
    what: "test rows",
    write: store.write,
    retryEveryMs: 0,
    batchMax: 3,
    pendingMax: options.pendingMax ?? 100,
    log: (line) => lines.push(line),
  });
  return { queue, lines };
}

describe("StoreQueue", () => {
  it("writes every row once and in order after the store failed N times", async () => {
    const store = flakyStore(4);
    const { queue, lines } = queueOver(store);
    for (let row = 1; row <= 5; row++) queue.add(row);
    for (let round = 0; round < 4; round++) {
      await queue.flush();
      expect(queue.size()).toBe(5 + round * 2);
      queue.add(6 + round * 2);
      queue.add(7 + round * 2);
    }
    await queue.flush();
    expect(queue.size()).toBe(0);
    expect(store.written.flat()).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(store.written.every((batch) => batch.length <= 3)).toBe(true);
    expect(queue.dropped()).toBe(0);
    // One line when it starts failing, one when the store takes the rows again: not one per try.
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/could not save 5 test rows \(kept/);
    expect(lines[1]).toMatch(/test rows: the store takes them again/);
  });

  it("lets other work run between the batches of one flush", async () => {
    const store = flakyStore(0);
    const { queue } = queueOver(store);
    for (let row = 1; row <= 9; row++) queue.add(row);
    const seen: number[] = [];
    const writing = queue.flush();
    setImmediate(() => seen.push(store.written.length));
    await writing;
    expect(store.written).toHaveLength(3);
    // A request's turn came after the first batch, not after the whole flush.
    expect(seen).toEqual([1]);
  });

  it("drops new rows past the bound, keeps the older ones in order, and says so once", async () => {
    const store = flakyStore(1);
    const { queue, lines } = queueOver(store, { pendingMax: 4 });
    const added = [1, 2, 3, 4, 5, 6].map((row) => queue.add(row));
    expect(added).toEqual([true, true, true, true, false, false]);
    expect(queue.dropped()).toBe(2);
    await queue.flush();
    await queue.flush();
    expect(store.written.flat()).toEqual([1, 2, 3, 4]);
    expect(lines.filter((line) => line.includes("dropping new ones"))).toHaveLength(1);
  });

  it("drops a batch the store refuses five times running (not an outage), and writes the rest", async () => {
    const store = flakyStore(
      5,
      () => new Error('insert failed: invalid input syntax for type uuid: "x"'),
    );
    const { queue, lines } = queueOver(store);
    for (let row = 1; row <= 5; row++) queue.add(row);
    for (let round = 0; round < 5; round++) await queue.flush();
    expect(store.written.flat()).toEqual([4, 5]);
    expect(queue.dropped()).toBe(3);
    expect(lines.some((line) => /dropped 3 test rows the store refused 5 times/.test(line))).toBe(
      true,
    );
  });

  it("never drops rows while the store is out of reach, however long", async () => {
    const store = flakyStore(50);
    const { queue } = queueOver(store);
    queue.add(1);
    for (let round = 0; round < 50; round++) await queue.flush();
    expect(queue.size()).toBe(1);
    await queue.flush();
    expect(store.written).toEqual([[1]]);
  });
  it("drains a long outage's rows in order while new ones arrive and others are refused", async () => {
    // 10,000 rows waited (past the point where written rows are compacted away); rows keep
    // arriving during the drain, and one batch the store refuses five times is dropped whole.
    const written: number[] = [];
    let calls = 0;
    let next = 1;
    const queue = new StoreQueue<number>({
      what: "test rows",
      write: async (batch) => {
        calls += 1;
        if (calls === 1) throw away();
        if (batch.includes(5_000)) throw new Error("insert failed: value too long");
        await Promise.resolve();
        written.push(...batch);
        if (calls % 100 === 0) queue.add(next++);
      },
      retryEveryMs: 0,
      batchMax: 7,
      pendingMax: 20_000,
      log: () => undefined,
    });
    while (next <= 10_000) queue.add(next++);
    await queue.flush();
    expect(queue.size()).toBe(10_000);
    // A refused batch stops a flush; the fifth refusal running drops it and the drain goes on.
    for (let round = 0; round < 6; round++) await queue.flush();
    expect(queue.size()).toBe(0);
    // The refused batch is the one holding row 5,000: rows 4,999 to 5,005 (batches of 7 from 1).
    const refused = Array.from({ length: 7 }, (_, i) => 4_999 + i);
    expect(queue.dropped()).toBe(7);
    expect(written).toEqual(
      Array.from({ length: next - 1 }, (_, i) => i + 1).filter((row) => !refused.includes(row)),
    );
    expect(next).toBeGreaterThan(10_010);
  });
});

describe("isStoreAway", () => {
  it("tells an unreachable store from a refused statement, through Drizzle's wrapping", () => {
    const wrapped = (cause: unknown) =>
      Object.assign(new Error("Failed query: insert …"), { cause });
    expect(isStoreAway(away())).toBe(true);
    expect(isStoreAway(wrapped(Object.assign(new Error("x"), { code: "CONNECTION_CLOSED" })))).toBe(
      true,
    );
    expect(isStoreAway(wrapped(Object.assign(new Error("terminating"), { code: "57P01" })))).toBe(
      true,
    );
    expect(isStoreAway(wrapped(Object.assign(new Error("dup"), { code: "23505" })))).toBe(false);
    expect(isStoreAway(new Error("plain"))).toBe(false);
    expect(isStoreAway(undefined)).toBe(false);
  });
});

describe("registerStoreQueueMetrics", () => {
  it("shows rows waiting and rows dropped per queue on /metrics", async () => {
    const registry = new Registry();
    const store = flakyStore(10);
    const { queue } = queueOver(store, { pendingMax: 2 });
    queue.add(1);
    queue.add(2);
    queue.add(3);
    registerStoreQueueMetrics(registry, {
      usage: queue,
      audit: { size: () => 0, dropped: () => 0 },
    });
    const text = await registry.metrics();
    expect(text).toMatch(/^llmgw_store_queue_pending\{queue="usage"\} 2$/m);
    expect(text).toMatch(/^llmgw_store_queue_pending\{queue="audit"\} 0$/m);
    expect(text).toMatch(/^llmgw_store_queue_dropped_total\{queue="usage"\} 1$/m);
  });
});
