// The usage batch insert on both stores (PGlite's COPY of CSV text, PostgreSQL's one JSON
// parameter): a batch reads back exactly as the same rows written by Drizzle's `.values()` (nulls,
// empty strings, quotes, commas, unicode, milliseconds), in the batch's order, each row once; and its
// column list is the table's, so a column added later cannot be left out.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  asc,
  openStore,
  pgliteCopyFrom,
  usageRecords,
  type NewUsageRecord,
  type Store,
} from "@llmgw/db";
import { startPostgres, tempDir } from "@llmgw/testing";
import { USAGE_COLUMNS, insertUsageRecords } from "./usage-insert";

const STORES: [string, () => Promise<Store>][] = [
  [
    "PGlite",
    async () => openStore({ kind: "pglite", dataDir: (await tempDir("usage-insert")).path }),
  ],
  ["PostgreSQL", async () => openStore({ kind: "postgres", url: (await startPostgres()).url })],
];

function rows(tag: string): [NewUsageRecord, ...NewUsageRecord[]] {
  return [
    {
      ...{ keyId: `key-${tag}`, owner: "team:ml", model: "qwen", endpoint: "/v1/chat/completions" },
      ...{ replicaId: "rep-1", requestId: `${tag}-1`, promptTokens: 12, completionTokens: 34 },
      ...{ latencyMs: 56, ttftMs: 7, status: 200, errorCode: null },
      at: new Date("2030-06-01T12:00:00.123Z"),
    },
    {
      ...{ keyId: `key-${tag}`, owner: 'o"wn\\er\n\u00fc\u{1F600}', model: "m'; drop table x;--" },
      ...{ endpoint: "/v1/embeddings", replicaId: null, requestId: `${tag}-2` },
      ...{ promptTokens: 0, completionTokens: 0, latencyMs: 0, ttftMs: null, status: 429 },
      ...{ errorCode: "rate_limit_exceeded", at: new Date("2030-06-01T12:00:01.999Z") },
    },
    {
      ...{ keyId: `key-${tag}`, owner: "team:ml", model: "qwen", endpoint: "/v1/completions" },
      ...{ replicaId: "rep-2", requestId: `${tag}-3`, promptTokens: 2_000_000_000 },
      ...{ completionTokens: 1, latencyMs: 1, status: 502, errorCode: "upstream_interrupted" },
      at: new Date("1999-12-31T23:59:59.000Z"),
    },
    {
      ...{ keyId: `key-${tag}`, owner: "", model: ' a,b;"c" \r\n\\N\t', endpoint: '"' },
      ...{ replicaId: "\\N", requestId: `${tag}-4`, promptTokens: -1, completionTokens: 0 },
      ...{ latencyMs: 2_147_483_647, ttftMs: 0, status: 0, errorCode: "" },
      at: new Date("2030-06-01T12:00:00.001Z"),
    },
  ];
}

it("writes every column of usage_records but its id", () => {
  const columns = Object.entries(usageRecords)
    .filter(([field, column]) => typeof column === "object" && field !== "id")
    .map(([field, column]) => `${field}=${(column as { name: string }).name}`);
  expect(USAGE_COLUMNS.map(([field, column]) => `${field}=${column}`).sort()).toEqual(
    columns.sort(),
  );
});

describe.each(STORES)("usage insert on %s", (name, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => store?.close());
  beforeEach(async () => {
    await store.db.delete(usageRecords);
  });

  const readBack = async (keyId: string) => {
    const read = await store.db.select().from(usageRecords).orderBy(asc(usageRecords.id));
    return read
      .filter((row) => row.keyId === keyId)
      .map(({ id: _id, keyId: _key, requestId, ...row }) => ({
        ...row,
        requestId: requestId.slice(-2),
      }));
  };

  it("stores a batch as Drizzle's .values() stores the same rows, in order", async () => {
    await store.db.insert(usageRecords).values(rows("drizzle"));
    await insertUsageRecords(store.db, rows("json"));
    const json = await readBack("key-json");
    expect(json).toHaveLength(4);
    expect(json).toEqual(await readBack("key-drizzle"));
    expect(json[1]?.owner).toBe('o"wn\\er\n\u00fc\u{1F600}');
    expect(json[2]?.at.toISOString()).toBe("1999-12-31T23:59:59.000Z");
    // Empty strings stay strings, not NULL; CSV's quotes and commas and COPY's \N are only text.
    expect(json[3]).toMatchObject({ owner: "", errorCode: "", replicaId: "\\N", endpoint: '"' });
    expect(json[3]?.model).toBe(' a,b;"c" \r\n\\N\t');
  });

  it("takes the COPY path on PGlite's own handle only", async () => {
    const none = () => "";
    expect(await pgliteCopyFrom(store.db, "usage_records (key_id)", none)).toBe(name === "PGlite");
    const inTransaction = await store.db.transaction((tx) =>
      pgliteCopyFrom(tx as unknown as typeof store.db, "usage_records (key_id)", none),
    );
    expect(inTransaction).toBe(false);
  });

  it("writes nothing for an empty batch, and a batch of 500 in one statement", async () => {
    await insertUsageRecords(store.db, []);
    const many = Array.from({ length: 500 }, (_, index) => ({
      ...rows("many")[0],
      requestId: `many-${index}`,
    }));
    await insertUsageRecords(store.db, many);
    const read = await store.db.select().from(usageRecords).orderBy(asc(usageRecords.id));
    expect(read.map((row) => row.requestId)).toEqual(many.map((row) => row.requestId));
  });

  it("refuses a batch with a row the table refuses, and writes none of it", async () => {
    const bad = [...rows("bad"), { ...rows("bad")[0], keyId: null as unknown as string }];
    await expect(insertUsageRecords(store.db, bad)).rejects.toThrow();
    expect(await store.db.select().from(usageRecords)).toEqual([]);
  });
});
