// The node records planning is handed, kept from pass to pass. `reconcileNodes` makes every
// node's record afresh from its agent session; the planner reuses its node map and placement index
// (`createPlanCache` in @llmgw/domain) only for records that are the same objects as last pass's,
// or that differ only in what the index ignores (free disk, measured draw). A record that comes
// out equal to the one before, field by field, is handed over as that same object here, so a pass
// over a fleet whose heartbeats changed nothing placement reads reuses all of it. Before that, a
// node whose session, last heartbeat and facility overlay are all as they were when its record
// was made is not made again at all (`recordOf`): at 10,000 nodes making and comparing every
// record was most of a settled pass.
import type { PlacementNode, ReconcileNode } from "@llmgw/domain";
import type { FacilityOverlay } from "./facility-overlay";
import type { LiveNode } from "./registry";
import { sameValue } from "./same-value";

/**
 * What a node's record was made from. A session is a new `LiveNode`; the registry counts its
 * heartbeats (the only thing that changes its figures and card samples); the overlay counts its
 * own changes. Reachability, which time alone changes, is asked each pass.
 */
interface Stamp {
  live: LiveNode;
  heartbeats: number;
  facility: FacilityOverlay;
  facilityVersion: number;
  isReachable: boolean;
  node: PlacementNode;
}

export class KeptNodes {
  private byId = new Map<string, ReconcileNode>();
  private stamps = new Map<string, Stamp>();
  /** Records handed over as last pass's objects, and records made anew: for tests. */
  kept = 0;
  made = 0;
  /** Records not made again, nothing they were made from having changed: for tests. */
  unchanged = 0;

  /**
   * The node's record: the one made last time if its session, last heartbeat, facility overlay
   * and reachability are unchanged since, otherwise `make()`'s (remembered for next time).
   */
  recordOf(
    live: LiveNode,
    isReachable: boolean,
    facility: FacilityOverlay,
    make: () => PlacementNode,
  ): PlacementNode {
    const was = this.stamps.get(live.nodeId);
    if (
      was !== undefined &&
      was.live === live &&
      was.heartbeats === live.heartbeats &&
      was.facility === facility &&
      was.facilityVersion === facility.version &&
      was.isReachable === isReachable
    ) {
      this.unchanged += 1;
      return was.node;
    }
    const node = make();
    const { heartbeats } = live;
    const facilityVersion = facility.version;
    this.stamps.set(live.nodeId, {
      live,
      heartbeats,
      facility,
      facilityVersion,
      isReachable,
      node,
    });
    return node;
  }

  /** `nodes` with each record equal to last pass's replaced by that object; remembers the rest. */
  keep(nodes: readonly ReconcileNode[]): ReconcileNode[] {
    const next = new Map<string, ReconcileNode>();
    const stamps = new Map<string, Stamp>();
    const kept = nodes.map((now) => {
      const was = this.byId.get(now.node.id);
      const stamp = this.stamps.get(now.node.id);
      if (stamp !== undefined) stamps.set(now.node.id, stamp);
      let record = now;
      // The same object (its record was not made again) first; then free disk: it changes with
      // most heartbeats, and settles most comparisons at once.
      if (
        was !== undefined &&
        (was.node === now.node ||
          (was.node.diskGbFree === now.node.diskGbFree && sameValue(was.node, now.node)))
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
    this.stamps = stamps;
    return kept;
  }
}
