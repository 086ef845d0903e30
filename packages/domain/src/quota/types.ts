// Quotas: what a scope (an org, team or project of the ownership tree) is guaranteed and limited
// to. Amounts are cards per GPU class, CPU cores and memory; a replica holds the cards of its
// shards (each card counted under its own class), its profile's cores and its profile's memory.
//
// Reading an amount:
// - in a guarantee, anything not named is guaranteed 0;
// - in a limit, anything not named is not limited.

/** Resources a scope can hold. */
export interface QuotaAmounts {
  /** Cards per GPU class name (`H100-80G`), as nodes report classes. */
  gpus: Record<string, number>;
  /** CPU cores; absent: none named. */
  cores?: number;
  /** Memory in GiB; absent: none named. */
  memoryGb?: number;
}

/** A scope's quota as stored and as planning reads it. */
export interface ScopeQuota {
  /** Owner string of an org, team or project: `team:ml`. */
  scope: string;
  guarantee: QuotaAmounts;
  /** null: no limit. */
  limit: QuotaAmounts | null;
}

/** One resource line of a scope: `gpus:H100-80G`, `cores` or `memory`. */
export type QuotaResource = `gpus:${string}` | "cores" | "memory";

/** What a scope holds against its quota, per resource (the Quotas page, metrics, `ctl quota`). */
export interface ScopeUsageLine {
  resource: QuotaResource;
  /** Summed from the scope's models' replicas and those of the scopes beneath it. */
  held: number;
  guaranteed: number;
  /** null: not limited. */
  limit: number | null;
  /** What is held beyond the guarantee (0 when within it). */
  borrowed: number;
}

export interface ScopeUsage {
  scope: string;
  lines: ScopeUsageLine[];
  /** True when some line's held has reached its limit. */
  atLimit: boolean;
}
