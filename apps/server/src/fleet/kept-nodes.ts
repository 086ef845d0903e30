// The node records planning is handed, kept from pass to pass. `reconcileNodes` makes every
// node's record afresh from its agent session; the planner reuses its node map and placement index
// (`createPlanCache` in @llmgw/domain) only for records that are the same objects as last pass's,
// or that differ only in what the index ignores (free disk, measured draw). A record that comes
// out equal to the one before, field by field, is handed over as that same object here, so a pass
// over a fleet whose heartbeats changed nothing placement reads reuses all of it.
import type { ReconcileNode } from "@llmgw/domain";

/** Deep equality over plain records, arrays and primitives: what a node's record is made of. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let at = 0; at < a.length; at += 1) if (!sameValue(a[at], b[at])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  let count = 0;
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    if (!Object.hasOwn(y, key) || !sameValue(x[key], y[key])) return false;
    count += 1;
  }
  return count === Object.keys(y).length;
}

export class KeptNodes {
  private byId = new Map<string, ReconcileNode>();
  /** Records handed over as last pass's objects, and records made anew: for tests. */
  kept = 0;
  made = 0;

  /** `nodes` with each record equal to last pass's replaced by that object; remembers the rest. */
  keep(nodes: readonly ReconcileNode[]): ReconcileNode[] {
    const next = new Map<string, ReconcileNode>();
    const kept = nodes.map((now) => {
      const was = this.byId.get(now.node.id);
      let record = now;
      // Free disk first: it changes with most heartbeats, and settles most comparisons at once.
      if (
        was !== undefined &&
        was.node.diskGbFree === now.node.diskGbFree &&
        sameValue(was.node, now.node)
      ) {
        record =
          was.unreachableSinceMs === now.unreachableSinceMs
            ? was
            : { node: was.node, unreachableSinceMs: now.unreachableSinceMs };
        this.kept += 1;
      } else this.made += 1;
      next.set(now.node.id, record);
      return record;
    });
    this.byId = next;
    return kept;
  }
}
