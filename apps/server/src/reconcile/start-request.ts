// The StartReplica frame for a replica: what to run, on which cards, with its derived key. Also
// used for the DesiredReplicas snapshot a node gets after it registers.
import { deriveReplicaKey } from "@llmgw/engines";
import { addressFor, sourceKind, type MirrorAddress, type ModelDefinition } from "@llmgw/domain";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { StartReplicaSchema } from "@llmgw/proto";
import type { ReplicaRecord } from "./replica-book";

export type StartReplicaInit = MessageInitShape<typeof StartReplicaSchema>;

type Profile = ModelDefinition["profiles"][number];

/** How each engine is told how many sequences it serves at once. */
const SLOT_FLAGS: Record<string, string> = {
  vllm: "--max-num-seqs",
  sglang: "--max-running-requests",
  llamacpp: "--parallel",
  trtllm: "--max_batch_size",
};

function slotArgs(profile: Profile): string[] {
  const flag = SLOT_FLAGS[profile.engine];
  return profile.slots === undefined || flag === undefined ? [] : [flag, String(profile.slots)];
}

/** llama.cpp's --ctx-size is shared by its slots; the others take the context of one sequence. */
function engineContext(profile: Profile, contextTokens: number): number {
  if (contextTokens === 0 || profile.engine !== "llamacpp") return contextTokens;
  return contextTokens * (profile.slots ?? 1);
}

/**
 * Whether the weights or an adapter are a mirror:PATH or a hub id, which the node fetches from
 * the mirrors (docs/mirrors.md).
 */
function loadsFromMirrors(model: ModelDefinition): boolean {
  const sources = [model.source, ...model.adapters.map((adapter) => adapter.source)];
  return sources.some((source) => {
    const kind = source === undefined ? undefined : sourceKind(source);
    return kind === "mirror" || kind === "hub";
  });
}

/**
 * The mirrors as sent for the model: an S3 store's signed URLs cut to the paths it reads, its
 * base URL empty (an agent that cannot read signed URLs then passes over it).
 */
function mirrorsFor(model: ModelDefinition, mirrors: readonly MirrorAddress[]) {
  const sources = [model.source, ...model.adapters.map((adapter) => adapter.source)];
  return mirrors.map((mirror) => {
    const address = addressFor(mirror, sources);
    return {
      name: address.name,
      baseUrl: address.baseUrl,
      signedUrls: address.signedUrls ?? {},
      expiresUnixMs: BigInt(address.expiresUnixMs ?? 0),
    };
  });
}

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
  contextTokens?: number,
  mirrors: readonly MirrorAddress[] = [],
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
    contextLength: engineContext(profile, contextTokens ?? profile.context_length ?? 0),
    // The profile's own arguments come after, so an operator's explicit flag still wins.
    args: [...slotArgs(profile), ...profile.args],
    env: { ...profile.env },
    apiKey: deriveReplicaKey(replicaSecret, record.id),
    allowPickle: model.allow_pickle,
    embeddings: model.embeddings,
    startTimeoutMs: profile.start_timeout_ms ?? startTimeoutMs,
    servedModelName: model.name,
    nodeRank: rank,
    nodeCount: record.shards?.length ?? 1,
    leaderAddress: rank > 0 ? (record.leaderAddress ?? "") : "",
    adapters: model.adapters.map((adapter) => ({
      name: adapter.name,
      source: adapter.source,
      rank: adapter.rank ?? 0,
    })),
    mirrors: loadsFromMirrors(model) ? mirrorsFor(model, mirrors) : [],
  };
  return init;
}
