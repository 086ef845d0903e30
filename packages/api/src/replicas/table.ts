// The replicas table's order, and the window of it the console asks for (`replicas.page`, P9: the
// whole book was 1.25 MB at 4,000 replicas for a page that draws about 35 rows).
import { z } from "zod";
import { oneLine } from "../text";
import {
  sortInputSchema,
  sortRowsBy,
  windowInputShape,
  windowOf,
  windowSchema,
  type SortState,
} from "../tables/window";
import { replicaViewSchema, type ReplicaView } from "./schemas";

const REPLICA_SORT_VALUES = {
  model: (replica: ReplicaView) => replica.model,
  node: (replica: ReplicaView) => replica.nodeName,
  engine: (replica: ReplicaView) => replica.engine,
  phase: (replica: ReplicaView) => replica.phase,
  phaseChanged: (replica: ReplicaView) => Date.parse(replica.phaseChangedAt),
  lastUsed: (replica: ReplicaView) => (replica.lastUsedAt ? Date.parse(replica.lastUsedAt) : 0),
} satisfies Record<string, (replica: ReplicaView) => string | number>;

export type ReplicaSortKey = keyof typeof REPLICA_SORT_VALUES;
const REPLICA_SORT_KEYS = Object.keys(REPLICA_SORT_VALUES) as [ReplicaSortKey, ...ReplicaSortKey[]];
/** By model, then node, then id: stable while phases change under the rows. */
export const REPLICA_SORT_DEFAULT: SortState<ReplicaSortKey> = { key: "model", direction: "asc" };

export function isReplicaSortKey(value: unknown): value is ReplicaSortKey {
  return typeof value === "string" && Object.hasOwn(REPLICA_SORT_VALUES, value);
}

export function sortReplicasBy(
  replicas: readonly ReplicaView[],
  sort: SortState<ReplicaSortKey>,
): ReplicaView[] {
  return sortRowsBy(replicas, sort, REPLICA_SORT_VALUES, [
    (replica) => replica.model,
    (replica) => replica.nodeName,
    (replica) => replica.id,
  ]);
}

export const replicasPageInputSchema = z.object({
  model: oneLine("model").trim().min(1, "model filter is empty").max(200).optional(),
  sort: sortInputSchema(REPLICA_SORT_KEYS),
  ...windowInputShape,
});
export type ReplicasPageInput = z.infer<typeof replicasPageInputSchema>;

/** `total`: the replicas in all (of the model, when one is named). */
export const replicasPageSchema = windowSchema(replicaViewSchema);
export type ReplicasPage = z.infer<typeof replicasPageSchema>;

/** The window `input` asks for of `replicas`, sorted as it says. */
export function replicasPageOf(
  replicas: readonly ReplicaView[],
  input: Pick<ReplicasPageInput, "sort" | "offset" | "limit">,
): ReplicasPage {
  return windowOf(sortReplicasBy(replicas, input.sort), input.offset, input.limit);
}
