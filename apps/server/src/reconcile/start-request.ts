// The StartReplica frame for a replica: what to run, on which cards, with its derived key. Also
// used for the DesiredReplicas snapshot a node gets after it registers.
import { deriveReplicaKey } from "@llmgw/engines";
import type { ModelDefinition } from "@llmgw/domain";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { StartReplicaSchema } from "@llmgw/proto";
import type { ReplicaRecord } from "./replica-book";

export type StartReplicaInit = MessageInitShape<typeof StartReplicaSchema>;

export function startRequestFor(
  record: ReplicaRecord,
  model: ModelDefinition,
  replicaSecret: Uint8Array,
  startTimeoutMs: number,
): StartReplicaInit | null {
  const profile = model.profiles.find((p) => p.name === record.profile);
  if (!profile) return null;
  const init: StartReplicaInit = {
    replicaId: record.id,
    model: model.name,
    engine: profile.engine,
    source: model.source,
    gpuIndexes: [...record.gpuIndexes],
    tensorParallel: profile.tensor_parallel,
    contextLength: profile.context_length ?? 0,
    args: [...profile.args],
    env: { ...profile.env },
    apiKey: deriveReplicaKey(replicaSecret, record.id),
    allowPickle: model.allow_pickle,
    embeddings: model.embeddings,
    startTimeoutMs,
    servedModelName: model.name,
  };
  return init;
}
