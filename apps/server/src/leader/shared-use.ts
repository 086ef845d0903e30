// Use that a standby's /v1 saw, carried to the leader through the store. The leader decides
// on-demand starts and idle eviction from memory (demand per model, last use per replica); a
// request that reached a standby must count there too, or an on-demand model asked for only
// through a standby would never start, and a replica used only through one would be evicted as
// idle. A standby writes what changed every refresh; the leader reads it every refresh.
import { messageOf } from "@llmgw/domain";
import { modelDemand, replicas, sql, type Database } from "@llmgw/db";
import type { DemandBook } from "../reconcile/demand";
import type { ReplicaBook } from "../reconcile/replica-book";

class SharedUse {
  /** What this process last wrote (as a standby) or took in (as the leader), by model / replica. */
  private readonly demandSeen = new Map<string, number>();
  private readonly useSeen = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly book: Pick<ReplicaBook, "all" | "get">,
    private readonly demand: DemandBook,
  ) {}

  /** Standby: writes demand and replica use newer than what it wrote before. */
  async report(): Promise<void> {
    for (const [model, atMs] of this.demand.entries()) {
      if (atMs <= (this.demandSeen.get(model) ?? 0)) continue;
      const at = new Date(atMs);
      await this.db
        .insert(modelDemand)
        .values({ model, demandedAt: at })
        .onConflictDoUpdate({
          target: modelDemand.model,
          set: { demandedAt: sql`greatest(${modelDemand.demandedAt}, excluded.demanded_at)` },
        });
      this.demandSeen.set(model, atMs);
    }
    for (const record of this.book.all()) {
      const usedMs = record.lastUsedAtMs ?? 0;
      if (usedMs <= (this.useSeen.get(record.id) ?? 0)) continue;
      await this.db
        .update(replicas)
        .set({ lastUsedAt: sql`greatest(${replicas.lastUsedAt}, ${new Date(usedMs)})` })
        .where(sql`${replicas.id} = ${record.id}`);
      this.useSeen.set(record.id, usedMs);
    }
  }

  /** Leader: takes in what standbys wrote; answers the models whose demand moved forward. */
  async absorb(): Promise<string[]> {
    const moved: string[] = [];
    for (const row of await this.db.select().from(modelDemand)) {
      const atMs = row.demandedAt.getTime();
      if (atMs <= (this.demand.lastAt(row.model) ?? 0)) continue;
      this.demand.record(row.model, atMs);
      moved.push(row.model);
    }
    const used = await this.db
      .select({ id: replicas.id, lastUsedAt: replicas.lastUsedAt })
      .from(replicas)
      .where(sql`${replicas.lastUsedAt} is not null`);
    for (const { id, lastUsedAt } of used) {
      const record = this.book.get(id);
      const usedMs = lastUsedAt?.getTime() ?? 0;
      if (record && usedMs > (record.lastUsedAtMs ?? 0)) record.lastUsedAtMs = usedMs;
    }
    return moved;
  }
}

export interface SharedUseOptions {
  db: Database;
  book: Pick<ReplicaBook, "all" | "get">;
  demand: DemandBook;
  isLeader(): boolean;
  /** A standby's request moved a model's demand forward: plan it now. */
  demanded(model: string): void;
  refreshMs: number;
  log(line: string): void;
}

/** Every refresh: a standby reports, the leader takes in. Returns the stop. */
export function startSharedUse(options: SharedUseOptions): () => void {
  const use = new SharedUse(options.db, options.book, options.demand);
  let failing = false;
  let running = false;
  const round = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      if (!options.isLeader()) await use.report();
      else for (const model of await use.absorb()) options.demanded(model);
      failing = false;
    } catch (error) {
      // Logged once until a round succeeds again; the next round retries anyway.
      if (!failing) options.log(`sharing /v1 use through the store failed: ${messageOf(error)}`);
      failing = true;
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void round(), options.refreshMs);
  timer.unref();
  return () => clearInterval(timer);
}
