// Two electors, as two control planes would be, on one PostgreSQL through separate connection
// pools: when the leader freezes (stops renewing), the standby leads within a lease and one renew
// interval, and the frozen one, resumed, sees at once that it lost.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@llmgw/db";
import { startPostgres, waitFor, type PostgresServer } from "@llmgw/testing";
import { LeaderElector } from "./elector";
import { leaseStoreOf, type LeaseStore } from "./lease";

const LEASE_MS = 1_500;
let postgres: PostgresServer;
let first: Store;
let second: Store;

beforeAll(async () => {
  postgres = await startPostgres();
  first = await openStore({ kind: "postgres", url: postgres.url, maxConnections: 2 });
  second = await openStore({ kind: "postgres", url: postgres.url, maxConnections: 2 });
});
afterAll(async () => {
  await first?.close();
  await second?.close();
  await postgres?.stop();
});

/** A store whose claims wait while "frozen", as a stopped process's would. */
function freezable(store: LeaseStore) {
  let resume: () => void = () => {};
  let frozen: Promise<void> | undefined;
  const wrapped: LeaseStore = {
    claim: async (claim) => {
      if (frozen) await frozen;
      return store.claim(claim);
    },
    peek: (name) => store.peek(name),
    release: (name, owner) => store.release(name, owner),
  };
  return {
    store: wrapped,
    freeze: () => {
      frozen = new Promise<void>((resolve) => (resume = resolve));
    },
    resume: () => resume(),
  };
}

describe("two electors on one PostgreSQL", () => {
  it("hand over within a lease and a renew interval when the leader freezes", async () => {
    const a = freezable(leaseStoreOf(first.db));
    const leader = new LeaderElector({
      store: a.store,
      ownerName: "a:8080",
      leaseMs: LEASE_MS,
      log: () => {},
    });
    const standby = new LeaderElector({
      store: leaseStoreOf(second.db),
      ownerName: "b:8080",
      leaseMs: LEASE_MS,
      log: () => {},
    });
    const lost: boolean[] = [];
    leader.onChange((leading) => lost.push(leading));
    leader.start();
    await waitFor(() => leader.isLeader(), { what: "the first elector leading" });
    standby.start();
    await standby.round();
    expect(standby.isLeader()).toBe(false);
    expect(standby.lease()?.ownerName).toBe("a:8080");

    a.freeze();
    const frozenAtMs = Date.now();
    await waitFor(() => standby.isLeader(), {
      what: "the standby leading",
      timeoutMs: 10_000,
      intervalMs: 20,
    });
    const handOverMs = Date.now() - frozenAtMs;
    // The claim lands one round after the lease lapses; allow the store's own latency on top.
    expect(handOverMs).toBeLessThanOrEqual(LEASE_MS + standby.renewIntervalMs + 500);
    expect(leader.isLeader()).toBe(true); // frozen: it has not heard yet

    a.resume();
    await waitFor(() => !leader.isLeader(), {
      what: "the resumed elector standing by",
      timeoutMs: 2_000,
    });
    expect(lost).toEqual([true, false]);
    expect(leader.lease()?.ownerName).toBe("b:8080");
    await leader.stop();
    await standby.stop();
  });
});
