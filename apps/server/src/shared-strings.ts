// One copy of each repeated string value. Rows read from the store and messages decoded from
// agents carry the same values many times over (a GPU model's name on every card, a node's id on
// each of its card rows, one driver version on every node, one owner on many keys), and each
// decode makes a fresh string of each. Handing every value through a pool keeps the first copy and
// lets the others die young (bench:memory's heap snapshots, 2026-12-05). A string is a value, so
// which copy a reader gets changes nothing it can see.

export class SharedStrings {
  private readonly pool = new Map<string, string>();

  /**
   * `entriesMax` bounds a pool kept for the process's life: once full it starts again empty, so
   * values seen once (ids, hashes) cannot make it grow without end; copies already shared stay.
   */
  constructor(private readonly entriesMax = Number.POSITIVE_INFINITY) {}

  /** Distinct values the pool holds now. */
  get size(): number {
    return this.pool.size;
  }

  share<T extends string>(value: T): T {
    const known = this.pool.get(value);
    if (known !== undefined) return known as T;
    if (this.pool.size >= this.entriesMax) this.pool.clear();
    this.pool.set(value, value);
    return value;
  }

  /**
   * Shares every string in a plain object or array, and in the plain objects and arrays it holds,
   * in place (Dates, Buffers and class instances are left as they are). Answers the value.
   */
  shareAll<T>(value: T): T {
    if (Array.isArray(value)) {
      for (let at = 0; at < value.length; at += 1) value[at] = this.shareOne(value[at]);
    } else if (isPlainObject(value)) {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) record[key] = this.shareOne(record[key]);
    }
    return value;
  }

  private shareOne(value: unknown): unknown {
    return typeof value === "string" ? this.share(value) : this.shareAll(value);
  }
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
