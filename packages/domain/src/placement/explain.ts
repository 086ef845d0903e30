// explain-placement: every node with what it says about one replica, for the CLI and console to
// print as they are. It runs the same checks as placement, all of them rather than the first.
import { buildFleet } from "./fleet";
import { placeReplica, rejectionsFor } from "./place";
import { rankingReasons } from "./score";
import {
  DEFAULT_PLACEMENT_POLICY,
  type PlacementInput,
  type PlacementRequest,
  type ReplicaShard,
} from "./types";

export interface NodeExplanation {
  nodeId: string;
  nodeName: string;
  fits: boolean;
  /** The shard placement would put here, when this node is (one of) its choice. */
  chosen?: ReplicaShard;
  failed: string[];
  reasons: string[];
  /** For a node that fits: what ranked it against the others (see rankingReasons). */
  ranking: string[];
}

export interface PlacementExplanation {
  replicaId: string;
  summary: string;
  nodes: NodeExplanation[];
}

export function explainPlacement(
  input: PlacementInput,
  request: PlacementRequest,
): PlacementExplanation {
  const policy = input.policy ?? DEFAULT_PLACEMENT_POLICY;
  const result = placeReplica(input, request);
  const fleet = buildFleet(input.nodes, input.replicas);
  const rejections = new Map(rejectionsFor(fleet, policy, request).map((r) => [r.nodeId, r]));
  const chosen = new Map(result.ok ? result.shards.map((shard) => [shard.nodeId, shard]) : []);
  const nodes = input.nodes.map((node): NodeExplanation => {
    const rejection = rejections.get(node.id);
    const shard = chosen.get(node.id);
    const usage = fleet.byId.get(node.id);
    const base = {
      nodeId: node.id,
      nodeName: node.name,
      fits: !rejection,
      failed: rejection?.failed ?? [],
      reasons: rejection?.reasons ?? [],
      ranking: !rejection && usage ? rankingReasons(usage, request, fleet) : [],
    };
    return shard ? { ...base, chosen: shard } : base;
  });
  const names = new Map(input.nodes.map((node) => [node.id, node.name]));
  // Explaining places nothing: the summary says where a new replica would go, by node name.
  const summary = result.ok
    ? `model "${request.model}" profile "${request.profile}": a new replica would go to ${result.shards.map((s) => names.get(s.nodeId) ?? s.nodeId).join(", ")}`
    : result.summary;
  return { replicaId: request.replicaId, summary, nodes };
}

/** One line per node: `node-3: needs 2 free H100-80G cards, has 1 (cards 2,5 held by qwen-7b/r2)`. */
export function formatExplanation(explanation: PlacementExplanation): string[] {
  const lines = explanation.nodes.map((node) => {
    const notes = [...node.ranking];
    if (node.chosen) {
      if (node.chosen.cardIndexes.length > 0)
        notes.unshift(`cards ${node.chosen.cardIndexes.join(",")}`);
      return `${node.nodeName}: chosen${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
    }
    if (!node.fits) return `${node.nodeName}: ${node.reasons.join("; ")}`;
    return `${node.nodeName}: fits, not chosen${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
  });
  return [explanation.summary, ...lines];
}
