// The leader lease on both backends: of many racing claims exactly one wins, the holder renews
// it, another owner takes it only once it has expired (on the database's clock), a restarted
// process (a new owner id) does not inherit it, and a release frees it at once.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, type Store, type StoreOptions } from "@llmgw/db";
import { startPostgres, tempDir, type PostgresServer } from "@llmgw/testing";
import { claimLease, releaseLease } from "./lease";

let postgres: PostgresServer | undefined;
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  await postgres?.stop();
});

const backends: Array<{ name: string; options: () => Promise<StoreOptions> }> = [
  {
    name: "PGlite",
    options: async () => ({ kind: "pglite", dataDir: (await tempDir("lease-pglite")).path }),
  },
  {
    name: "PostgreSQL",
    options: async () => ({ kind: "postgres", url: (postgres ??= await startPostgres()).url }),
  },
];

let leaseNumber = 0;
const claimFor = (name: string, owner: string, leaseMs = 60_000) =>
  ({ name, owner, ownerName: `${owner}.lab:8080`, leaseMs }) as const;

describe.each(backends)("leader lease on $name", ({ options }) => {
  let store: Store | undefined;
  const open = async () => {
    if (!store) {
      store = await openStore(await options());
      stores.push(store);
    }
    return store.db;
  };
  const freshName = () => `control-plane-${++leaseNumber}`;

  it("lets exactly one of many racing owners win", async () => {
    const db = await open();
    const name = freshName();
    const owners = Array.from({ length: 24 }, (_, i) => `owner-${i}`);
    const results = await Promise.all(owners.map((owner) => claimLease(db, claimFor(name, owner))));
    const winners = results.filter((result) => result.isLeader);
    expect(winners).toHaveLength(1);
    // Every loser names the winner as the holder.
    const holder = winners[0]?.owner;
    expect(owners).toContain(holder);
    expect(results.every((result) => result.owner === holder)).toBe(true);
    expect(results.every((result) => result.ownerName === `${holder}.lab:8080`)).toBe(true);
  });

  it("renews for its holder, keeping the moment it was acquired", async () => {
    const db = await open();
    const name = freshName();
    const first = await claimLease(db, claimFor(name, "a"));
    await sleep(20);
    const renewed = await claimLease(db, claimFor(name, "a"));
    expect(renewed.isLeader).toBe(true);
    expect(renewed.acquiredAt.getTime()).toBe(first.acquiredAt.getTime());
    expect(renewed.expiresAt.getTime()).toBeGreaterThan(first.expiresAt.getTime());
    const other = await claimLease(db, claimFor(name, "b"));
    expect(other).toMatchObject({ isLeader: false, owner: "a", ownerName: "a.lab:8080" });
  });

  it("passes to another owner only once it has expired", async () => {
    const db = await open();
    const name = freshName();
    const first = await claimLease(db, claimFor(name, "a", 300));
    expect((await claimLease(db, claimFor(name, "b", 300))).isLeader).toBe(false);
    await sleep(450);
    const taken = await claimLease(db, claimFor(name, "b", 300));
    expect(taken).toMatchObject({ isLeader: true, owner: "b" });
    expect(taken.acquiredAt.getTime()).toBeGreaterThan(first.acquiredAt.getTime());
    // The old holder, back from a freeze, sees it lost.
    expect(await claimLease(db, claimFor(name, "a", 300))).toMatchObject({
      isLeader: false,
      owner: "b",
    });
  });

  it("is not inherited by a restarted process (a new owner id) before it expires", async () => {
    const db = await open();
    const name = freshName();
    await claimLease(db, claimFor(name, "process-before-restart"));
    const restarted = await claimLease(db, claimFor(name, "process-after-restart"));
    expect(restarted).toMatchObject({ isLeader: false, owner: "process-before-restart" });
  });

  it("frees it at once on release by its holder, and ignores a release by anyone else", async () => {
    const db = await open();
    const name = freshName();
    await claimLease(db, claimFor(name, "a"));
    expect(await releaseLease(db, name, "b")).toBe(false);
    expect((await claimLease(db, claimFor(name, "b"))).isLeader).toBe(false);
    expect(await releaseLease(db, name, "a")).toBe(true);
    expect(await claimLease(db, claimFor(name, "b"))).toMatchObject({ isLeader: true, owner: "b" });
  });
});
