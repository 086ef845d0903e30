import { create } from "@bufbuild/protobuf";
import type { Database } from "@llmgw/db";
import { RegisterSchema } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import { createInventoryWriter } from "./inventory";

/** A store whose every write fails, as a full disk or a dropped connection would. */
const failingDb = {
  transaction: () => Promise.reject(new Error("disk full")),
  update: () => ({ set: () => ({ where: () => Promise.reject(new Error("connection lost")) }) }),
  execute: () => Promise.reject(new Error("connection reset")),
} as unknown as Database;

/** The `(id, at)` rows in a Drizzle statement: its SQL pieces naming `::timestamptz)`. */
function rowsIn(query: unknown): number {
  const chunks = (query as { queryChunks?: unknown[] } | null)?.queryChunks;
  if (!Array.isArray(chunks)) return 0;
  return chunks.reduce<number>((sum, chunk) => {
    const text = (chunk as { value?: unknown } | null)?.value;
    const own = Array.isArray(text) && text.join("").includes("::timestamptz)") ? 1 : 0;
    return sum + own + rowsIn(chunk);
  }, 0);
}

/** A writer over the failing store, with the lines it logs. */
function failingWriter() {
  const lines: string[] = [];
  const writer = createInventoryWriter(
    failingDb,
    { get: () => undefined },
    () => 0,
    (line) => lines.push(line),
    { changed: () => undefined },
  );
  return { lines, writer };
}

describe("createInventoryWriter", () => {
  it("logs a failed save with the node and the reason instead of throwing", async () => {
    const { lines, writer } = failingWriter();
    await writer.registered(create(RegisterSchema, { nodeId: "n1" }));
    await writer.disconnected("n2");
    await writer.lastSeen([
      { nodeId: "n3", at: new Date(0) },
      { nodeId: "n4", at: new Date(0) },
    ]);
    expect(lines).toEqual([
      "could not save node n1: disk full",
      "could not save node n2: connection lost",
      "could not save the last-seen times of 2 nodes: connection reset",
    ]);
  });

  it("logs a failed batch once, then each node's own failure as it is written alone", async () => {
    const { lines, writer } = failingWriter();
    await Promise.all([
      writer.registered(create(RegisterSchema, { nodeId: "n1" })),
      writer.registered(create(RegisterSchema, { nodeId: "n2" })),
      writer.disconnected("n3"),
      writer.disconnected("n4"),
    ]);
    expect(lines).toEqual([
      "could not save the registrations of 2 nodes together (disk full); writing them one node at a time",
      "could not save node n1: disk full",
      "could not save node n2: disk full",
      "could not save the last-seen times of 2 disconnected nodes together (connection reset); writing them one node at a time",
      "could not save node n3: connection lost",
      "could not save node n4: connection lost",
    ]);
  });

  it("is settled only once every write asked for, and one asked for meanwhile, has ended", async () => {
    // The server closes the store after this: a write still waiting would fail against it.
    const releases: Array<() => void> = [];
    const slow = () => new Promise<void>((resolve) => releases.push(resolve));
    const heldDb = {
      update: () => ({ set: () => ({ where: slow }) }),
      execute: slow,
    } as unknown as Database;
    const writer = createInventoryWriter(
      heldDb,
      { get: () => undefined },
      () => 0,
      () => undefined,
      { changed: () => undefined },
    );
    let isSettled = false;
    void writer.disconnected("n1");
    void writer.settled().then(() => (isSettled = true));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(releases).toHaveLength(1);
    void writer.lastSeen([{ nodeId: "n2", at: new Date(0) }]);
    releases.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(isSettled).toBe(false);
    releases.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(isSettled).toBe(true);
  });

  it("writes a 2,000-node fleet's last-seen times in statements of 250 rows, not one", async () => {
    // PGlite runs each statement on the server's thread: an API read waits for the one before it.
    const statements: number[] = [];
    const countingDb = {
      execute: (query: unknown) => {
        statements.push(rowsIn(query));
        return Promise.resolve();
      },
    } as unknown as Database;
    const writer = createInventoryWriter(
      countingDb,
      { get: () => undefined },
      () => 0,
      () => {},
      { changed: () => {} },
    );
    await writer.lastSeen(
      Array.from({ length: 2_000 }, (_, i) => ({ nodeId: `n${i}`, at: new Date(0) })),
    );
    expect(statements).toEqual(Array.from({ length: 8 }, () => 250));
  });

  it("tells the node rows kept in memory after a registration or a disconnection, not a sweep", async () => {
    const told: string[] = [];
    let step = "";
    const writer = createInventoryWriter(
      failingDb,
      { get: () => undefined },
      () => 0,
      () => undefined,
      { changed: () => told.push(step) },
    );
    step = "registered";
    await writer.registered(create(RegisterSchema, { nodeId: "n1" }));
    step = "disconnected";
    await writer.disconnected("n2");
    step = "last seen";
    await writer.lastSeen([{ nodeId: "n3", at: new Date(0) }]);
    expect(told).toEqual(["registered", "disconnected"]);
  });
});
