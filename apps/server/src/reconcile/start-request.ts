// The StartReplica frame for a replica: what to run, on which cards, with its derived key. Also
// used for the DesiredReplicas snapshot a node gets after it registers.
import { deriveReplicaKey } from "@llmgw/engines";
import type { ModelDefinition } from "@llmgw/domain";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { StartReplicaSchema } from "@llmgw/proto";
import type { ReplicaRecord } from "./replica-book";

export type StartReplicaInit = MessageInitShape<typeof StartReplicaSchema>;

/**
 * The frame for one shard (rank 0 unless given). A worker shard of a replica spanning nodes gets
 * its own cards, its rank and the leader's address; before the leader has reported that address
 * it gets the frame with none, which its agent takes as "keep it if running, do not start it".
 */
export function startRequestFor(
  record: ReplicaRecord,
  model: ModelDefinition,
  replicaSecret: Uint8Array,
  startTimeoutMs: number,
  rank = 0,
): StartReplicaInit | null {
  const profile = model.profiles.find((p) => p.name === record.profile);
  if (!profile) return null;
  const shard = record.shards?.find((s) => s.rank === rank);
  if (record.shards && !shard) return null;
  const init: StartReplicaInit = {
    replicaId: record.id,
    model: model.name,
    engine: profile.engine,
    source: model.source,
    gpuIndexes: [...(shard?.gpuIndexes ?? record.gpuIndexes)],
    tensorParallel: profile.tensor_parallel,
    contextLength: profile.context_length ?? 0,
    args: [...profile.args],
    env: { ...profile.env },
    apiKey: deriveReplicaKey(replicaSecret, record.id),
    allowPickle: model.allow_pickle,
    embeddings: model.embeddings,
    startTimeoutMs,
    servedModelName: model.name,
    nodeRank: rank,
    nodeCount: record.shards?.length ?? 1,
    leaderAddress: rank > 0 ? (record.leaderAddress ?? "") : "",
  };
  return init;
}
