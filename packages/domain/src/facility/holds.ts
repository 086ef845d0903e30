// Holds and cordons: an operator keeps new replicas off a node (cordon) or a whole domain (hold),
// and with drain moves the replicas there elsewhere, each stopped only once its replacement is
// ready. This turns them into the two sentences placement and planning read for one node.
import { formatDomain, isInDomain, type Domain } from "./domains";

export type NodeCordon = "cordoned" | "draining";

export interface DomainHold extends Domain {
  isDraining: boolean;
  heldBy: string;
}

export interface NodeHoldState {
  /** Why nothing new is placed on the node; absent when it takes replicas. */
  hold?: string;
  /** Why its replicas are moved off; absent unless it drains. */
  drain?: string;
}

/** What the node's own cordon and the holds of its domains say about it; the node's own first. */
export function nodeHoldState(
  nodeName: string,
  labels: Readonly<Record<string, string>>,
  cordon: NodeCordon | null,
  holds: readonly DomainHold[],
): NodeHoldState {
  const state: NodeHoldState = {};
  if (cordon !== null) {
    state.hold = `is ${cordon} (llmgw ctl node uncordon ${nodeName} lets replicas back)`;
    if (cordon === "draining") state.drain = `node ${nodeName} is draining`;
  }
  for (const hold of holds) {
    if (!isInDomain(labels, hold)) continue;
    const domain = formatDomain(hold);
    state.hold ??= `is in ${hold.kind} ${hold.value}, held by ${hold.heldBy}${hold.isDraining ? " and draining" : ""} (llmgw ctl facility release ${domain})`;
    if (hold.isDraining) state.drain ??= `${hold.kind} ${hold.value} is draining`;
  }
  return state;
}
