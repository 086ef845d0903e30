// Parts of a node's view that the full list (nodes-service.ts) and the light lists (node-lists.ts)
// both work out the same way: its state from its session or the store, and each card's link.
import type { NodeRow } from "@llmgw/db";
import type { CardRow } from "./stored-node-rows";
import type { GpuView, NodeView } from "@llmgw/api";
import { assessPcieLink, nodeLiveness, type LivenessPolicy } from "@llmgw/domain";
import type { FleetRegistry, LiveNode } from "./registry";

/**
 * A node's state and when it was last heard: from its session when it has one, else the store.
 * The state is judged as the server's own stalls excuse (`FleetRegistry.heard`), the time shown is
 * the last frame's.
 */
export function nodeStateOf(
  row: NodeRow,
  live: LiveNode | undefined,
  policy: LivenessPolicy,
  nowMs: number,
  registry: Pick<FleetRegistry, "heard">,
): { state: NodeView["state"]; lastSeenMs: number } {
  const storedMs = row.lastSeenAt.getTime();
  if (!live) return { state: "unreachable", lastSeenMs: storedMs };
  const heard = registry.heard(live);
  const judged = {
    isConnected: heard.isConnected,
    lastSeenMs: Math.max(heard.lastSeenMs, storedMs),
  };
  return {
    state: nodeLiveness(judged, nowMs, policy),
    lastSeenMs: Math.max(live.lastSeenMs, storedMs),
  };
}

/** The link judged by what it can carry as seated, never by the generation it idles at. */
export function pcieLinkView(card: CardRow): GpuView["pcieLink"] {
  const link = assessPcieLink(card);
  if (link === null) return null;
  return {
    carriedGBps: link.carried.bandwidthGBps,
    possibleGBps: link.possible.bandwidthGBps,
    isBelowCapability: link.isBelowCapability,
    reason: link.reason,
  };
}
