// Keeping a peer's models in step with its /v1/models: new ones are added, ones it offers again
// come back, and one it no longer offers is dropped, unless a fallback here still names it: then
// it is kept, marked withdrawn (it answers 503 until the peer offers it again), so the fallback
// keeps naming something an operator can see rather than a model that silently vanished.
export interface PeerModel {
  /** The peer's own name for the model; offered here as `PEER/NAME`. */
  name: string;
  isWithdrawn: boolean;
}

export interface PeerModelsDiff {
  models: PeerModel[];
  added: string[];
  withdrawn: string[];
  removed: string[];
}

export function diffPeerModels(
  previous: readonly PeerModel[],
  offered: readonly string[],
  isNamedByFallback: (name: string) => boolean,
): PeerModelsDiff {
  const offeredSet = new Set(offered);
  const known = new Map(previous.map((model) => [model.name, model]));
  const added = [...offeredSet].filter((name) => !known.has(name));
  const withdrawn: string[] = [];
  const removed: string[] = [];
  const models: PeerModel[] = [...offeredSet].map((name) => ({ name, isWithdrawn: false }));
  for (const model of previous) {
    if (offeredSet.has(model.name)) continue;
    if (isNamedByFallback(model.name)) {
      models.push({ name: model.name, isWithdrawn: true });
      if (!model.isWithdrawn) withdrawn.push(model.name);
    } else removed.push(model.name);
  }
  models.sort((a, b) => a.name.localeCompare(b.name, "en"));
  return { models, added: added.sort(), withdrawn, removed };
}
