// A restart with no room beside its running replicas: it waits when other restarts under way
// would free room by finishing, and otherwise restarts in place (stops an old replica first).
// Only restarts that finish without help count: a replica already draining, or an old replica
// whose model has a new one on its way (it stops once that one is ready). Two restarts that both
// wait for room therefore never wait for each other.
import { candidatesByNode, roomWouldBeFreed } from "./make-room";
import type { PassState } from "./pass-state";
import type { DesiredModel, ObservedReplica, ReconcileAction } from "./types";

function modelsReplacing(state: PassState): ReadonlySet<string> {
  const models = new Set<string>();
  for (const replica of state.input.replicas) {
    const revision = state.byName.get(replica.model)?.revision;
    const onItsWay = !["ready", "failed", "stopped", "draining"].includes(replica.phase);
    if (replica.modelRevision === revision && onItsWay) models.add(replica.model);
  }
  return models;
}

/** Other models whose restart under way would, once done, free room for one of `model`'s. */
function restartsMakingRoom(model: DesiredModel, state: PassState): string[] {
  const replacing = modelsReplacing(state);
  const isLeaving = (replica: ObservedReplica): boolean => {
    if (replica.model === model.definition.name) return false;
    if (replica.phase === "draining") return true;
    const revision = state.byName.get(replica.model)?.revision;
    return replica.modelRevision !== revision && replacing.has(replica.model);
  };
  const candidates = candidatesByNode(state, isLeaving);
  if (candidates.size === 0) return [];
  const freed = roomWouldBeFreed(state, {
    model,
    candidates,
    mayTake: () => true,
    order: (a, b) => a.createdAtMs - b.createdAtMs,
    worth: () => 0,
    admits: () => true,
    reasonFor: () => "",
  });
  if (!freed) return [];
  const names = new Set([...candidates.values()].flat().map((r) => r.model));
  return [...names].sort();
}

/**
 * A surge restart refused for room: wait for the restarts that would make it (true, with the
 * model's reason said), else stop the oldest outdated replica first (true), else false.
 */
export function restartWithoutRoom(
  model: DesiredModel,
  state: PassState,
  actions: ReconcileAction[],
  oldest: ObservedReplica | undefined,
): boolean {
  const name = model.definition.name;
  const waitingFor = restartsMakingRoom(model, state);
  if (waitingFor.length > 0) {
    const summary = `model "${name}" waits for the restart of ${waitingFor.join(", ")} to free room`;
    actions.push({ kind: "unplaceable", model: name, summary, reasons: [] });
    return true;
  }
  if (!oldest) return false;
  actions.push({
    kind: "stop",
    model: name,
    replicaId: oldest.id,
    nodeId: oldest.nodeId,
    reason: "no room beside for a surge restart: restarting in place",
  });
  return true;
}
