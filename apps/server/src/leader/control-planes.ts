// The control planes on this store, as rows each process keeps fresh: who they are, where they
// answer, their version. Each process writes its own row every renew round and reads everyone's
// into memory, so the questions asked on hot paths (who leads and where, how many share the
// per-key limits, which addresses agents should know) are answered without a query.
import { controlPlanes, eq, sql, type ControlPlaneRow, type Database } from "@llmgw/db";
import { messageOf } from "@llmgw/domain";

/** This process as its row says; read at every beat (the ports are known only once listening). */
export interface ControlPlaneSelf {
  name: string;
  apiUrl: string;
  peerUrl: string;
  agentUrls: readonly string[];
  version: string;
}

export interface ControlPlaneInfo {
  owner: string;
  name: string;
  apiUrl: string;
  peerUrl: string;
  agentUrls: string[];
  version: string;
  startedAt: Date;
  lastSeenAt: Date;
}

/** Who holds the lease now, as the elector last read it. */
export interface LeaseHolder {
  leaseHolder(): string | null;
}

/** A row not written for this many leases belongs to a process that is gone. */
const LIVE_FOR_LEASES = 3;
/** Rows of processes gone this long are deleted, so the table does not grow with restarts. */
const FORGET_AFTER_MS = 24 * 60 * 60_000;

export class ControlPlaneDirectory {
  private rows: (ControlPlaneInfo & { isLive: boolean })[] = [];
  private timer: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    private readonly db: Database,
    /** This process's lease owner id. */
    private readonly owner: string,
    private readonly describe: () => ControlPlaneSelf,
    private readonly lease: LeaseHolder,
    private readonly options: { leaseMs: number; log: (line: string) => void },
  ) {}

  /** Writes our row now and then every third of a lease, reading everyone's each time. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), Math.max(1, this.options.leaseMs / 3));
    this.timer.unref();
  }

  /** Every control plane seen lately (this one included), oldest first. */
  live(): ControlPlaneInfo[] {
    return this.rows.filter((row) => row.isLive).map(({ isLive: _isLive, ...info }) => info);
  }

  /** Every row, live or not, for `ctl control-planes`. */
  all(): (ControlPlaneInfo & { isLive: boolean })[] {
    return [...this.rows];
  }

  /** The leader's row, when the lease holder has one; null while nobody (known) leads. */
  leader(): ControlPlaneInfo | null {
    const holder = this.lease.leaseHolder();
    if (holder === null) return null;
    if (holder === this.owner) return { ...this.selfInfo() };
    return this.live().find((row) => row.owner === holder) ?? null;
  }

  /** The agent addresses of every live control plane, ours first, without duplicates. */
  agentUrls(): string[] {
    const others = this.live().filter((row) => row.owner !== this.owner);
    return [...new Set([...this.describe().agentUrls, ...others.flatMap((row) => row.agentUrls)])];
  }

  /** How many control planes share the per-key limits now (never below one: us). */
  liveCount(): number {
    // Asked by every /v1 request (the per-key limits' share): counted without making a list.
    let others = 0;
    for (const row of this.rows) if (row.isLive && row.owner !== this.owner) others += 1;
    return others + 1;
  }

  /** Stops beating and deletes our row, so the others stop counting us at once. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.db
      .delete(controlPlanes)
      .where(eq(controlPlanes.owner, this.owner))
      .catch((error: unknown) =>
        this.options.log(`control planes: could not remove this one's row: ${messageOf(error)}`),
      );
  }

  /** One round: our row written, stale rows forgotten, everyone's read. */
  async beat(): Promise<void> {
    try {
      const row = { ...this.selfInfoRow(), lastSeenAt: sql`now()` };
      await this.db
        .insert(controlPlanes)
        .values(row)
        .onConflictDoUpdate({ target: controlPlanes.owner, set: row });
      await this.db
        .delete(controlPlanes)
        .where(sql`${controlPlanes.lastSeenAt} < now() - ${FORGET_AFTER_MS} * interval '1 ms'`);
      const liveAfterMs = LIVE_FOR_LEASES * this.options.leaseMs;
      const rows = await this.db
        .select({
          row: controlPlanes,
          isLive: sql<boolean>`${controlPlanes.lastSeenAt} >= now() - ${liveAfterMs} * interval '1 ms'`,
        })
        .from(controlPlanes)
        .orderBy(controlPlanes.startedAt);
      this.rows = rows.map(({ row, isLive }) => ({ ...infoOf(row), isLive }));
      if (this.failing) this.options.log("control planes: the store answers again");
      this.failing = false;
    } catch (error) {
      // The last rows read stay: who leads and where is still the best answer we have.
      if (!this.failing)
        this.options.log(`control planes: could not refresh (${messageOf(error)})`);
      this.failing = true;
    }
  }

  private selfInfoRow() {
    const { name, apiUrl, peerUrl, agentUrls, version } = this.describe();
    return { owner: this.owner, name, apiUrl, peerUrl, agentUrls: [...agentUrls], version };
  }

  private selfInfo(): ControlPlaneInfo {
    const mine = this.rows.find((row) => row.owner === this.owner);
    const now = new Date();
    return {
      ...this.selfInfoRow(),
      startedAt: mine?.startedAt ?? now,
      lastSeenAt: mine?.lastSeenAt ?? now,
    };
  }
}

function infoOf(row: ControlPlaneRow): ControlPlaneInfo {
  return { ...row, agentUrls: [...row.agentUrls] };
}
