// R3: PostgreSQL 15 restarted (stopped, 3 s away, started again on the same port and data) while
// six clients stream through /v1. No inference request may fail (the key lookup keeps its last
// answer while the store is away; usage rows wait in memory), and no usage row may be lost: once
// the store is back and the writes drain, the key's usage rows with status 200 equal the clients'
// own count of successful requests, each request id once. Three restarts; the worst is printed.
import { and, eq, openStore, sql, usageRecords, type Store } from "@llmgw/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, waitFor, type PostgresServer } from "@llmgw/testing";
import { simGpuModel, simWeightsSource, startFleet, type Fleet } from "./harness";
import { sleep, startLoad } from "./fault-load";

const MODEL = "r3";
const DOWN_MS = 3_000;
const ROUNDS = 3;

interface Round {
  failedRequests: number;
  okRequests: number;
  rowsLost: number;
  rowsDuplicated: number;
  drainMs: number;
  /** The longest one request took: a request held up by the absent store shows here. */
  slowestMs: number;
  /** How long PostgreSQL was stopped. */
  downMs: number;
}

describe("R3: PostgreSQL restarts under load", () => {
  let pg: PostgresServer;
  let fleet: Fleet;
  let key: string;
  let keyId: string;
  let store: Store;

  /** Status-200 usage rows of the test key, and how many distinct requests they name. */
  const usageRows = async () => {
    const [row] = await store.db
      .select({
        rows: sql<number>`count(*)::int`,
        requests: sql<number>`count(distinct ${usageRecords.requestId})::int`,
      })
      .from(usageRecords)
      .where(and(eq(usageRecords.keyId, keyId), eq(usageRecords.status, 200)));
    return row ?? { rows: 0, requests: 0 };
  };

  beforeAll(async () => {
    pg = await startPostgres();
    const source = await simWeightsSource("it-r3-weights");
    fleet = await startFleet({
      databaseUrl: pg.url,
      env: { LLMGW_RESYNC_INTERVAL_MS: "300" },
      agents: [{ name: "it-r3-a", profile: "l40sx4" }],
    });
    await fleet.api.models.add.mutate({
      definition: simGpuModel(MODEL, source, { min: 2, max: 2 }),
    });
    await fleet.readyReplicas(MODEL, 2, 120_000);
    const created = await fleet.api.keys.create.mutate({ owner: "team:ml", models: [MODEL] });
    key = created.key;
    keyId = created.view.id;
    // The test's own reader of the store, apart from the server's connections.
    store = await openStore({ kind: "postgres", url: pg.url });
  });

  afterAll(async () => {
    await store?.close();
    await fleet?.stop(Boolean(process.env.IT_DUMP));
    await pg?.stop();
  });

  async function restartOnce(okSoFar: number): Promise<Round> {
    const load = startLoad({ bases: [fleet.v1], key, model: MODEL, clients: 6 });
    await sleep(1_000);
    const { downAtMs, upAtMs } = await pg.restart(DOWN_MS);
    await sleep(2_000);
    const tally = await load.stop();
    if (tally.failures.length > 0) console.log("R3 failures:", tally.failures.slice(0, 5));
    const expected = okSoFar + tally.ok;
    const drainStartMs = Date.now();
    // The rows written while the store was away come in on the recorder's next rounds.
    const settled = await waitFor(
      async () => {
        const counted = await usageRows();
        return counted.rows >= expected ? counted : undefined;
      },
      { what: `${expected} usage rows`, timeoutMs: 30_000 },
    ).catch(() => usageRows());
    return {
      failedRequests: tally.failures.length,
      okRequests: tally.ok,
      rowsLost: Math.max(0, expected - settled.requests),
      rowsDuplicated: settled.rows - settled.requests,
      drainMs: Date.now() - drainStartMs,
      slowestMs: tally.slowestMs,
      downMs: upAtMs - downAtMs,
    };
  }

  it("fails no request and loses no usage row across three restarts", async () => {
    const rounds: Round[] = [];
    let okSoFar = (await usageRows()).requests;
    for (let round = 0; round < ROUNDS; round++) {
      const result = await restartOnce(okSoFar);
      rounds.push(result);
      okSoFar += result.okRequests;
    }
    const worst = (field: keyof Round) => Math.max(...rounds.map((r) => r[field]));
    console.log(
      `R3 worst of ${ROUNDS} (PostgreSQL stopped ${DOWN_MS / 1000} s under 6 streaming clients): ` +
        `failed requests ${worst("failedRequests")}, usage rows lost ${worst("rowsLost")}, ` +
        `duplicated ${worst("rowsDuplicated")}, rows drained within ${worst("drainMs")} ms, ` +
        `slowest request ${worst("slowestMs")} ms, store away up to ${worst("downMs")} ms; ` +
        `ok requests per round ${rounds.map((r) => r.okRequests).join("/")}`,
    );
    for (const r of rounds) {
      expect(r.okRequests).toBeGreaterThan(30);
      expect(r.failedRequests).toBe(0);
      expect(r.rowsLost).toBe(0);
      expect(r.rowsDuplicated).toBe(0);
      expect(r.slowestMs).toBeLessThan(5_000);
    }
    // The rows really waited out the store (the test exercised the queue, not a lucky gap).
    expect(fleet.server.process.output()).toMatch(/could not save \d+ usage records \(kept/);
  });

  it("answers a key it cannot check while the store is away with a 503 to retry, not a 401 or 500", async () => {
    const fresh = (await fleet.api.keys.create.mutate({ owner: "team:ml", models: [MODEL] })).key;
    const ask = (bearer: string) =>
      fetch(`${fleet.v1}/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
        body: JSON.stringify({
          model: MODEL,
          max_tokens: 2,
          messages: [{ role: "user", content: "hi" }],
        }),
      });
    expect((await ask(key)).status).toBe(200);
    // Away longer than a lookup waits (5 s): the key never seen cannot be checked in time.
    const restarting = pg.restart(9_000);
    await sleep(1_500);
    const [unseen, known] = await Promise.all([ask(fresh), ask(key)]);
    await restarting;
    expect(unseen.status).toBe(503);
    expect(unseen.headers.get("retry-after")).toBe("2");
    const body = (await unseen.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("store_unavailable");
    expect(body.error.message).not.toMatch(/ECONNREFUSED|select|postgres/i);
    expect(known.status).toBe(200);
    // Once the store answers, the new key is checked and works.
    await waitFor(async () => ((await ask(fresh)).status === 200 ? true : undefined), {
      what: "the new key accepted once the store is back",
      timeoutMs: 20_000,
    });
  });
});
