// Which replica holds which card: the light form of the replica list the cluster page's heatmap
// polls for its tooltips (P9). At 4,000 replicas the full list (`replicas.list`, kept for the CLI
// and the replicas page) was 1.25 MB; the tooltip shows only a card's replica and model. The
// server builds it straight from its replica records (`ReplicasService.cards`), not from the full
// views with node names, dates and a sort, which it would only throw away.
import { z } from "zod";

export const replicaCardsSchema = z.object({
  /** Distinct model names; a replica's `model` indexes into it. */
  models: z.array(z.string()),
  /** Distinct node ids; a place's `node` indexes into it. */
  nodeIds: z.array(z.string()),
  /** Replicas that hold cards now (stopped and failed ones hold none). */
  replicas: z.array(
    z.object({
      id: z.string(),
      model: z.number().int(),
      /** One entry per node it holds cards on: several for a replica spanning nodes. */
      places: z.array(z.object({ node: z.number().int(), gpuIndexes: z.array(z.number().int()) })),
    }),
  ),
});
export type ReplicaCardsView = z.infer<typeof replicaCardsSchema>;

/** Interns strings: the index of each distinct one, in first-seen order. */
function interner(into: string[]): (value: string) => number {
  const indexOf = new Map<string, number>();
  return (value) => {
    let index = indexOf.get(value);
    if (index === undefined) {
      index = into.push(value) - 1;
      indexOf.set(value, index);
    }
    return index;
  };
}

/** What the light list reads of a replica: a full view, or the server's own record. */
interface ReplicaPlaces {
  id: string;
  model: string;
  phase: string;
  nodeId: string;
  gpuIndexes: readonly number[];
  /** Every shard of a replica spanning nodes; empty or absent for one on a single node. */
  shards?: readonly { nodeId: string; gpuIndexes: readonly number[] }[];
}

export function replicaCardsOf(replicas: Iterable<ReplicaPlaces>): ReplicaCardsView {
  const view: ReplicaCardsView = { models: [], nodeIds: [], replicas: [] };
  const model = interner(view.models);
  const node = interner(view.nodeIds);
  for (const replica of replicas) {
    if (replica.phase === "stopped" || replica.phase === "failed") continue;
    const places = replica.shards && replica.shards.length > 0 ? replica.shards : [replica];
    view.replicas.push({
      id: replica.id,
      model: model(replica.model),
      places: places.map((place) => ({
        node: node(place.nodeId),
        gpuIndexes: [...place.gpuIndexes],
      })),
    });
  }
  return view;
}
