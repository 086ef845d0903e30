// What a pass does when a model's next replica cannot be placed: make room by taking borrowed
// capacity back or evicting idle replicas; at a quota limit during a rollout, retire an outdated
// replica so its room goes to the new definition; wait for other restarts that would make room,
// or restart in place when nothing else will; otherwise say why, so status, events and
// explain carry it.
import type { ModelPlacementResult } from "../placement/place-model";
import { evictIdleFor } from "./idle-eviction";
import { restartWithoutRoom } from "./restart-room";
import type { PassState } from "./pass-state";
import { takeBackFor } from "./take-back";
import type { DesiredModel, ObservedReplica, ReconcileAction } from "./types";

export function onRefused(
  model: DesiredModel,
  result: Extract<ModelPlacementResult, { ok: false }>,
  state: PassState,
  actions: ReconcileAction[],
  rollout: { outdated: readonly ObservedReplica[]; atLimit: boolean },
): void {
  // Room taken back from borrowers or from idle replicas: placed once the node has freed it.
  if (takeBackFor(model, state, actions) || evictIdleFor(model, state, actions)) return;
  const name = model.definition.name;
  const oldest = rollout.outdated[0];
  if (rollout.atLimit && oldest) {
    // Old replicas would hold the limit's room for ever: the new definition could never start.
    actions.push({
      kind: "stop",
      model: name,
      replicaId: oldest.id,
      nodeId: oldest.nodeId,
      reason: "making room within the owner's quota limit for the model's new definition",
    });
    return;
  }
  if (restartWithoutRoom(model, state, actions, oldest)) return;
  const reasons = result.profiles.flatMap((p) =>
    p.rejections.map((r) => `${r.nodeName} (profile ${p.profile}): ${r.reasons.join("; ")}`),
  );
  actions.push({ kind: "unplaceable", model: name, summary: result.summary, reasons });
}
