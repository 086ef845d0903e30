// Carries out a plan: records every decision in the store first, then tells the node. A frame that
// is lost costs nothing: heartbeats report what runs, and the next pass compares again.
import type { ReconcileAction } from "@llmgw/domain";
import type { ReconcileDeps } from "./deps";
import type { PlacementWarnings } from "./placement-warnings";
import { placedRecord, type ReplicaRecord } from "./replica-book";
import { sendStart, sendStop } from "./frames";

type Action<K extends ReconcileAction["kind"]> = Extract<ReconcileAction, { kind: K }>;

/** What a pass knows beyond one action: the replicas its placements stand in for. */
interface PassContext {
  /** Replicas stopped because their node was lost, with that node's name; a placement takes one. */
  replacing: Array<{ replicaId: string; nodeName: string }>;
}

/** Which stops of a pass give up replicas on lost nodes, so the placements after them are rebuilds. */
function passContext(actions: readonly ReconcileAction[]): PassContext {
  const lost = new Map<string, string>();
  for (const a of actions) if (a.kind === "node-lost") lost.set(a.nodeId, a.nodeName);
  const replacing = actions.flatMap((a) =>
    a.kind === "stop" && lost.has(a.nodeId)
      ? [{ replicaId: a.replicaId, nodeName: lost.get(a.nodeId) ?? a.nodeId }]
      : [],
  );
  return { replacing };
}

/** Where a replica was placed, in words: its node, or every shard's rank, node and cards. */
function placedOn(deps: ReconcileDeps, record: ReplicaRecord): string {
  const nameOf = (id: string) => deps.registry.get(id)?.register.nodeName ?? id;
  const cardsOf = (indexes: readonly number[]) =>
    indexes.length > 0 ? `cards ${indexes.join(",")}` : "CPU";
  if (!record.shards)
    return `(${record.engine}, ${cardsOf(record.gpuIndexes)}) on ${nameOf(record.nodeId)}`;
  const shards = record.shards.map(
    (s) => `rank ${s.rank} on ${nameOf(s.nodeId)} (${cardsOf(s.gpuIndexes)})`,
  );
  return `(${record.engine}, ${record.shards.length} nodes) as ${shards.join(", ")}`;
}

function announce(deps: ReconcileDeps, record: ReplicaRecord, context: PassContext): void {
  const node = deps.registry.get(record.nodeId)?.register.nodeName ?? record.nodeId;
  deps.log(`placing ${record.model} replica ${record.id} ${placedOn(deps, record)}`);
  const params = {
    model: record.model,
    node,
    nodeId: record.nodeId,
    cards: record.gpuIndexes.join(","),
    ...(record.shards ? { nodes: record.shards.map((s) => s.nodeId).join(",") } : {}),
  };
  const replaced = context.replacing.shift();
  if (replaced)
    deps.events.record("replica.rebuilt", record.id, {
      ...params,
      previous: replaced.replicaId,
      lostNode: replaced.nodeName,
    });
  else deps.events.record("replica.placed", record.id, params);
  sendStart(deps, record.id);
}

/**
 * Placements next to each other in a plan are recorded with one write, then announced and sent
 * in plan order: a pass that places thousands of replicas waits for the store once, not once
 * per replica, and no node hears of a replica before it is stored.
 */
async function placeAll(
  deps: ReconcileDeps,
  actions: readonly Action<"place">[],
  context: PassContext,
): Promise<void> {
  const nowMs = deps.nowMs();
  const catalog = deps.catalog.current();
  const records: ReplicaRecord[] = [];
  for (const action of actions) {
    const profile = catalog.get(action.model)?.profiles.find((p) => p.name === action.profile);
    const record = profile && placedRecord(action, profile.engine, nowMs);
    if (record) records.push(record);
  }
  await deps.book.insertMany(records);
  for (const record of records) announce(deps, record, context);
}

async function stop(deps: ReconcileDeps, action: Action<"stop">): Promise<void> {
  const isConnected = deps.links.isConnected(action.nodeId);
  const nowMs = deps.nowMs();
  await deps.book.update(
    action.replicaId,
    { phase: "stopped", message: action.reason, isLostStopped: !isConnected },
    nowMs,
  );
  // Every shard of a replica spanning nodes stops with it (sendStop tells each of their nodes).
  for (const shard of deps.book.get(action.replicaId)?.shards ?? [])
    if (shard.phase !== "stopped")
      await deps.book.updateShard(action.replicaId, shard.rank, { phase: "stopped" }, nowMs);
  deps.log(`stopping ${action.model} replica ${action.replicaId}: ${action.reason}`);
  sendStop(deps, action.nodeId, action.replicaId, action.reason);
}

async function countFailure(deps: ReconcileDeps, action: Action<"count-failure">): Promise<void> {
  const health = deps.health.get(action.model);
  const failures = (health?.revision === action.revision ? health.consecutiveFailures : 0) + 1;
  deps.log(
    `model ${action.model}: replica ${action.replicaId} failed (${failures} in a row): ${action.error}`,
  );
  await deps.health.set({
    name: action.model,
    consecutiveFailures: failures,
    isParked: health?.isParked ?? false,
    lastError: action.error,
    revision: action.revision,
    lastFailureAtMs: deps.nowMs(),
  });
}

async function park(deps: ReconcileDeps, action: Action<"park">): Promise<void> {
  const health = deps.health.get(action.model);
  if (!health) return;
  deps.log(
    `model ${action.model} parked after ${health.consecutiveFailures} failed starts in a row: ${action.lastError}; change its definition or run \`llmgw ctl retry ${action.model}\``,
  );
  await deps.health.set({ ...health, isParked: true, lastError: action.lastError });
  deps.events.record("model.parked", action.model, {
    model: action.model,
    failures: health.consecutiveFailures,
    error: action.lastError,
  });
}

async function executeAction(
  deps: ReconcileDeps,
  warnings: PlacementWarnings,
  action: ReconcileAction,
  context: PassContext = { replacing: [] },
): Promise<void> {
  switch (action.kind) {
    case "place":
      return placeAll(deps, [action], context);
    case "stop":
      return stop(deps, action);
    case "count-failure":
      return countFailure(deps, action);
    case "park":
      return park(deps, action);
    case "reset-failures":
      if (action.why === "new-revision")
        deps.log(
          `model ${action.model}: definition changed (revision ${action.revision}); failures cleared`,
        );
      return deps.health.reset(action.model, action.revision);
    case "node-lost":
      deps.log(
        `node ${action.nodeName} is lost (unreachable for more than ${deps.policy.lostAfterMs} ms); rebuilding its replicas on other nodes`,
      );
      deps.events.record("node.lost", action.nodeId, {
        node: action.nodeName,
        lostAfterMs: deps.policy.lostAfterMs,
      });
      return;
    case "unplaceable":
      // Once per episode: the event (and the attention it asks for) comes when placement first
      // refuses the model, not on every pass that refuses it again.
      if (!deps.unplaceable.has(action.model))
        deps.events.record("model.unplaceable", action.model, {
          model: action.model,
          summary: action.summary,
        });
      deps.unplaceable.set(action.model, { summary: action.summary, reasons: action.reasons });
      if (warnings.shouldLog(action.model, action.summary, deps.nowMs()))
        deps.log(`cannot place ${action.model}: ${action.summary}`);
      return;
  }
}

/** Carries out a plan in order, recording each run of placements with one write. */
export async function executeActions(
  deps: ReconcileDeps,
  warnings: PlacementWarnings,
  actions: readonly ReconcileAction[],
): Promise<void> {
  const context = passContext(actions);
  let at = 0;
  while (at < actions.length) {
    const action = actions[at] as ReconcileAction;
    at += 1;
    if (action.kind !== "place") {
      await executeAction(deps, warnings, action, context);
      continue;
    }
    const places = [action];
    for (let next = actions[at]; next?.kind === "place"; next = actions[at]) {
      places.push(next);
      at += 1;
    }
    await placeAll(deps, places, context);
  }
}
