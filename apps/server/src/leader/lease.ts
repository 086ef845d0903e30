// The leader lease: one row per lease name in the store, claimed and renewed by a single
// INSERT … ON CONFLICT statement. Postgres locks the conflicting row and re-checks the WHERE on
// its newest version, so of any number of racing claims exactly one wins. Expiry is measured on
// the database's clock (now()), so control planes on machines with skewed clocks still agree.
import { eq, leaderLease, sql, type Database } from "@llmgw/db";

export interface LeaseClaim {
  name: string;
  /** Random per process: a restarted process is a new owner and waits for the old claim. */
  owner: string;
  /** For humans: host:port or a label. */
  ownerName: string;
  leaseMs: number;
}

export interface LeaseState {
  isLeader: boolean;
  /** The holder now (us or another); empty when no row could be read. */
  owner: string;
  ownerName: string;
  expiresAt: Date;
  acquiredAt: Date;
}

/** The lease operations the elector needs, so its tests can fake the store. */
export interface LeaseStore {
  claim(claim: LeaseClaim): Promise<LeaseState>;
  /** Reads without claiming: a standby's probe that the store is back. */
  peek(name: string): Promise<unknown>;
  release(name: string, owner: string): Promise<boolean>;
}

export function leaseStoreOf(db: Database): LeaseStore {
  return {
    claim: (claim) => claimLease(db, claim),
    peek: (name) => readLease(db, name),
    release: (name, owner) => releaseLease(db, name, owner),
  };
}

/** Takes the lease if it is free, expired or already ours (then renews it); says who holds it. */
export async function claimLease(db: Database, claim: LeaseClaim): Promise<LeaseState> {
  const expiresAt = sql`now() + ${Math.round(claim.leaseMs)} * interval '1 millisecond'`;
  const won = await db
    .insert(leaderLease)
    .values({ name: claim.name, owner: claim.owner, ownerName: claim.ownerName, expiresAt })
    .onConflictDoUpdate({
      target: leaderLease.name,
      set: {
        owner: sql`excluded.owner`,
        ownerName: sql`excluded.owner_name`,
        // A renewal keeps the moment we first took it; a takeover starts a new term.
        acquiredAt: sql`case when ${leaderLease.owner} = excluded.owner then ${leaderLease.acquiredAt} else now() end`,
        renewedAt: sql`now()`,
        expiresAt: sql`excluded.expires_at`,
      },
      setWhere: sql`${leaderLease.owner} = excluded.owner or ${leaderLease.expiresAt} < now()`,
    })
    .returning();
  const row = won[0] ?? (await readLease(db, claim.name));
  if (!row) throw new Error(`lease ${claim.name}: no row after claiming it`);
  return {
    isLeader: won.length > 0,
    owner: row.owner,
    ownerName: row.ownerName,
    expiresAt: row.expiresAt,
    acquiredAt: row.acquiredAt,
  };
}

/** Expires the lease at once if we hold it, so a standby need not wait out the term. */
export async function releaseLease(db: Database, name: string, owner: string): Promise<boolean> {
  const released = await db
    .update(leaderLease)
    .set({ expiresAt: sql`now() - interval '1 millisecond'` })
    .where(sql`${leaderLease.name} = ${name} and ${leaderLease.owner} = ${owner}`)
    .returning({ name: leaderLease.name });
  return released.length > 0;
}

async function readLease(db: Database, name: string) {
  const [row] = await db.select().from(leaderLease).where(eq(leaderLease.name, name));
  return row;
}
