// The elector against a fake lease store on a fake clock: it claims and renews every third of
// the lease, a leader keeps leading through a store outage (logging once), a standby gives the
// leader one renew round after an outage before claiming, a leader told another holds the lease
// drops at once, and stop() releases.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LeaderElector } from "./elector";
import type { LeaseClaim, LeaseState, LeaseStore } from "./lease";

const LEASE_MS = 3_000;
const RENEW_MS = 1_000;

/** One lease row with the real claim rules, on the (faked) Date.now clock. */
class FakeLeaseStore implements LeaseStore {
  holder: { owner: string; ownerName: string; expiresAtMs: number } | undefined;
  down = false;
  claims: string[] = [];
  peeks = 0;
  released: string[] = [];

  async claim(claim: LeaseClaim): Promise<LeaseState> {
    this.claims.push(claim.owner);
    this.throwIfDown();
    const held = this.holder;
    if (!held || held.owner === claim.owner || held.expiresAtMs < Date.now()) {
      this.holder = { ...claim, expiresAtMs: Date.now() + claim.leaseMs };
    }
    const now = must(this.holder);
    const expiresAt = new Date(now.expiresAtMs);
    const isLeader = now.owner === claim.owner;
    return {
      isLeader,
      owner: now.owner,
      ownerName: now.ownerName,
      expiresAt,
      acquiredAt: expiresAt,
    };
  }
  async peek(_name: string): Promise<unknown> {
    this.peeks += 1;
    this.throwIfDown();
    return this.holder;
  }
  async release(_name: string, owner: string): Promise<boolean> {
    this.throwIfDown();
    this.released.push(owner);
    if (this.holder?.owner !== owner) return false;
    this.holder.expiresAtMs = Date.now() - 1;
    return true;
  }
  private throwIfDown() {
    if (this.down) throw new Error("connect ECONNREFUSED 10.0.0.5:5432");
  }
}

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("fake store: no holder");
  return value;
}

let store: FakeLeaseStore;
let logs: string[];
const electors: LeaderElector[] = [];

function elector(owner: string) {
  const made = new LeaderElector({
    store,
    owner,
    ownerName: `${owner}:8080`,
    leaseMs: LEASE_MS,
    log: (line) => logs.push(`${owner}: ${line}`),
  });
  const changes: boolean[] = [];
  made.onChange((leading) => changes.push(leading));
  electors.push(made);
  return { elector: made, changes };
}

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse("2030-01-01T00:00:00Z") });
  store = new FakeLeaseStore();
  logs = [];
});
afterEach(async () => {
  for (const made of electors.splice(0)) await made.stop().catch(() => undefined);
  vi.useRealTimers();
});

describe("LeaderElector", () => {
  it("claims at start, renews every third of the lease, and tells listeners once", async () => {
    const { elector: a, changes } = elector("a");
    expect(a.renewIntervalMs).toBe(RENEW_MS);
    a.start();
    await advance(0);
    expect(a.isLeader()).toBe(true);
    await advance(3 * RENEW_MS);
    expect(store.claims).toEqual(["a", "a", "a", "a"]);
    expect(changes).toEqual([true]);
    expect(a.lease()?.expiresAt.getTime()).toBe(Date.now() + LEASE_MS);
    expect(logs).toEqual(["a: leader lease: leading"]);
  });

  it("gives each process its own random owner id, so a restart never inherits the lease", () => {
    const first = new LeaderElector({ store, ownerName: "x", leaseMs: LEASE_MS, log: () => {} });
    const second = new LeaderElector({ store, ownerName: "x", leaseMs: LEASE_MS, log: () => {} });
    expect(first.owner).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.owner).not.toBe(second.owner);
  });

  it("keeps leading while the store is out of reach, logging it once", async () => {
    const { elector: a, changes } = elector("a");
    a.start();
    await advance(0);
    store.down = true;
    await advance(10 * RENEW_MS);
    expect(a.isLeader()).toBe(true);
    expect(changes).toEqual([true]);
    expect(logs.filter((line) => line.includes("out of reach"))).toEqual([
      "a: leader lease: store out of reach (connect ECONNREFUSED 10.0.0.5:5432); keeps leading",
    ]);
    store.down = false;
    await advance(RENEW_MS);
    expect(a.isLeader()).toBe(true);
    expect(logs.at(-1)).toBe("a: leader lease: store reachable again");
  });

  it("drops leadership at once when its claim comes back held by another", async () => {
    const { elector: a, changes } = elector("a");
    a.start();
    await advance(0);
    // Another process took it over (e.g. we were frozen past the lease).
    store.holder = { owner: "b", ownerName: "b:8080", expiresAtMs: Date.now() + LEASE_MS };
    await advance(RENEW_MS);
    expect(a.isLeader()).toBe(false);
    expect(changes).toEqual([true, false]);
    expect(logs.at(-1)).toBe("a: leader lease: standing by (held by b:8080)");
  });

  it("as a standby after an outage, leaves the leader one renew round to renew first", async () => {
    const { elector: a } = elector("a");
    const { elector: b, changes } = elector("b");
    a.start();
    await advance(0);
    b.start();
    await advance(0);
    expect(b.isLeader()).toBe(false);
    store.down = true;
    await advance(2 * LEASE_MS); // the lease lapses in the store while nobody reaches it
    store.down = false;
    store.claims = [];
    // b's first round after the outage only probes; a's round in between renews.
    await advance(RENEW_MS);
    expect(store.claims).toEqual(["a"]);
    expect(store.peeks).toBeGreaterThan(0);
    await advance(RENEW_MS);
    expect(a.isLeader()).toBe(true);
    expect(b.isLeader()).toBe(false);
    expect(changes).toEqual([]);
    expect(store.claims).toContain("b");
  });

  it("as a standby, takes over within a lease and a renew round of the leader freezing", async () => {
    let resume: () => void = () => {};
    const frozen = new Promise<void>((resolve) => (resume = resolve));
    let freeze = false;
    const aStore: LeaseStore = {
      claim: async (claim) => {
        if (freeze) await frozen; // the process is stopped; its round finishes when it resumes
        return store.claim(claim);
      },
      peek: (name) => store.peek(name),
      release: (name, owner) => store.release(name, owner),
    };
    const a = new LeaderElector({
      store: aStore,
      owner: "a",
      ownerName: "a",
      leaseMs: LEASE_MS,
      log: () => {},
    });
    electors.push(a);
    const { elector: b, changes } = elector("b");
    a.start();
    await advance(0);
    b.start();
    await advance(0);
    freeze = true;
    await advance(LEASE_MS + RENEW_MS);
    expect(b.isLeader()).toBe(true);
    expect(changes).toEqual([true]);
    resume();
    await advance(0);
    expect(a.isLeader()).toBe(false);
    expect(a.lease()?.owner).toBe("b");
  });

  it("releases the lease on stop when leading, and not when standing by", async () => {
    const { elector: a, changes } = elector("a");
    const { elector: b } = elector("b");
    a.start();
    b.start();
    await advance(0);
    await b.stop();
    expect(store.released).toEqual([]);
    await a.stop();
    expect(store.released).toEqual(["a"]);
    expect(a.isLeader()).toBe(false);
    expect(changes).toEqual([true, false]);
    await advance(5 * RENEW_MS);
    expect(store.claims).toEqual(["a", "b"]);
  });

  it("releases a lease won by a round still in flight when stop() was called", async () => {
    const { elector: a, changes } = elector("a");
    a.start(); // the first claim is in flight
    await a.stop();
    expect(store.released).toEqual(["a"]);
    expect(must(store.holder).expiresAtMs).toBeLessThan(Date.now());
    expect(changes).toEqual([]);
  });

  it("stops within a renew interval per step even when the store hangs", async () => {
    const hung = new FakeLeaseStore();
    hung.claim = () => new Promise<LeaseState>(() => {});
    const a = new LeaderElector({ store: hung, ownerName: "a", leaseMs: LEASE_MS, log: () => {} });
    a.start();
    let stopped = false;
    void a.stop().then(() => (stopped = true));
    await advance(RENEW_MS);
    expect(stopped).toBe(true);
  });

  it("never runs two rounds at once when the store hangs", async () => {
    const hung = new FakeLeaseStore();
    let calls = 0;
    hung.claim = () => {
      calls += 1;
      return new Promise<LeaseState>(() => {});
    };
    const a = new LeaderElector({ store: hung, ownerName: "a", leaseMs: LEASE_MS, log: () => {} });
    a.start();
    await advance(10 * RENEW_MS);
    expect(calls).toBe(1);
  });

  it("asks the store before acting after a freeze longer than the lease, and stands down", async () => {
    let frozenForMs = 0;
    const a = new LeaderElector({
      ...{ store, owner: "a", ownerName: "a:8080", leaseMs: LEASE_MS, log: () => {} },
      monotonicMs: () => performance.now() + frozenForMs,
    });
    electors.push(a);
    a.start();
    await advance(0);
    expect(await a.confirm()).toBe(true);
    const claimsBefore = store.claims.length;
    // While a slept, its lease lapsed and b took it; no timer of a's ran meanwhile.
    frozenForMs = 4 * LEASE_MS;
    store.holder = { owner: "b", ownerName: "b:8080", expiresAtMs: Date.now() + LEASE_MS };
    expect(a.isLeader()).toBe(true);
    expect(await a.confirm()).toBe(false);
    expect(store.claims.length).toBe(claimsBefore + 1);
    expect(a.isLeader()).toBe(false);
  });

  it("confirms without a round trip while its last renewal is recent", async () => {
    const { elector: a } = elector("a");
    a.start();
    await advance(0);
    const claimsBefore = store.claims.length;
    expect(await a.confirm()).toBe(true);
    expect(store.claims.length).toBe(claimsBefore);
  });
});
