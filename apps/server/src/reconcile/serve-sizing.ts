// Sizing a replica as it is started: the context its cards hold beside the weights (shrunk, with
// an event and a line on the replica) or a refusal before the engine starts (the replica fails
// with the reason, so the model's failures and parking carry it).
import { sizeAtServe, type ModelDefinition, type ServeSizing } from "@llmgw/domain";
import { describeSource } from "../fleet/source-descriptions";
import type { ReconcileDeps } from "./deps";
import type { ReplicaRecord } from "./replica-book";

const GB = 1e9;

/** The smallest of the replica's cards on its leader node, as the node reported them. */
function cardMemoryGb(deps: ReconcileDeps, record: ReplicaRecord): number | undefined {
  const gpus = deps.registry.get(record.nodeId)?.register.hardware?.gpus ?? [];
  const chosen = gpus.filter((gpu) => record.gpuIndexes.includes(gpu.index));
  if (chosen.length === 0) return undefined;
  return Math.min(...chosen.map((gpu) => Number(gpu.memoryBytesTotal) / GB));
}

export function servingSizeOf(
  deps: ReconcileDeps,
  record: ReplicaRecord,
  model: ModelDefinition,
): ServeSizing {
  const profile = model.profiles.find((p) => p.name === record.profile);
  const description = describeSource(model.source, deps.registry.sources);
  if (!profile || profile.gpu === undefined || description === undefined)
    return { kind: "as-asked" };
  const cards = record.gpuIndexes.length * (record.shards?.length ?? 1);
  return sizeAtServe(profile, description, cardMemoryGb(deps, record), cards);
}

/**
 * Says once, when the replica is first started, what sizing did: a shrunk context becomes an
 * event and the replica's message; a refusal fails the replica with its reason.
 */
export function announceServingSize(
  deps: ReconcileDeps,
  record: ReplicaRecord,
  sizing: ServeSizing,
): void {
  if (sizing.kind === "as-asked" || record.message !== "") return;
  const nowMs = deps.nowMs();
  if (sizing.kind === "shrunk") {
    const message = `context shrunk to fit the cards: ${sizing.note.text}`;
    void deps.book.update(record.id, { message }, nowMs);
    deps.events.record("replica.context-shrunk", record.id, {
      model: record.model,
      replica: record.id,
      askedTokens: sizing.askedTokens,
      grantedTokens: sizing.contextTokens,
    });
    deps.log(`replica ${record.id} of ${record.model}: ${message}`);
    return;
  }
  const message = `refused before starting: ${sizing.note.text}`;
  void deps.book.update(record.id, { phase: "failed", message }, nowMs);
  deps.events.record("replica.failed", record.id, {
    model: record.model,
    node: deps.registry.get(record.nodeId)?.register.nodeName ?? record.nodeId,
    nodeId: record.nodeId,
    error: message,
  });
  deps.log(`replica ${record.id} of ${record.model}: ${message}`);
}
