// Replacing a model's replicas after its definition changed (a new revision), one at a time.
//
// Surge (the default): a new replica is started beside the old ones (one above max while the
// change rolls out), and an old one stops only once a new one is ready, so the model never serves
// with fewer replicas than it wants. In place (`restart: in-place`, for a fleet with no room
// beside): an old replica is stopped first and its replacement placed once it has gone. Either
// way the next new replica waits until the one before it is ready.
import type { DesiredModel, ObservedReplica } from "./types";

const PHASE_RANK: Record<string, number> = {
  placing: 0,
  fetching: 1,
  starting: 2,
  draining: 3,
  ready: 4,
};

/** Which to give up first: outdated, then least far along, then the newest. */
export function surplusOrder(revision: number) {
  return (a: ObservedReplica, b: ObservedReplica): number => {
    const outdated = Number(b.modelRevision !== revision) - Number(a.modelRevision !== revision);
    if (outdated !== 0) return outdated;
    const rank = (PHASE_RANK[a.phase] ?? 0) - (PHASE_RANK[b.phase] ?? 0);
    return rank !== 0 ? rank : b.createdAtMs - a.createdAtMs;
  };
}

function isInPlace(model: DesiredModel): boolean {
  return model.definition.restart === "in-place";
}

/**
 * What to stop this pass: old replicas a ready new one replaces, surplus, and above the limit.
 * Replicas on draining nodes (`drains`, with why) are replaced like old ones, with surge: they
 * serve on outside the count and the max until enough replicas elsewhere are ready, then stop.
 */
const NO_DRAINS: ReadonlyMap<ObservedReplica, string> = new Map();
const NO_STOPS: ReadonlyMap<ObservedReplica, string> = new Map();

export function chooseStops(
  model: DesiredModel,
  counting: readonly ObservedReplica[],
  desired: number,
  drains: ReadonlyMap<ObservedReplica, string> = NO_DRAINS,
): ReadonlyMap<ObservedReplica, string> {
  // Nothing to stop among no replicas: a model placed from empty, every model of a full pass,
  // shares one empty answer rather than a map and a few lists made per model.
  if (counting.length === 0 && drains.size === 0) return NO_STOPS;
  const { revision } = model;
  const stops = new Map<ObservedReplica, string>();
  const staying = drains.size === 0 ? counting : counting.filter((r) => !drains.has(r));
  const current = staying.filter((r) => r.modelRevision === revision);
  const outdated = staying.filter((r) => r.modelRevision !== revision).sort(surplusOrder(revision));
  const currentReady = current.filter((r) => r.phase === "ready").length;
  if (currentReady >= desired)
    for (const [r, drain] of drains) stops.set(r, `moved off: ${drain}; its replacement is ready`);
  // Each ready new replica takes one old one's place; the rest keep serving meanwhile.
  const keptOutdated = Math.max(0, desired - currentReady);
  for (const r of outdated.slice(0, Math.max(0, outdated.length - keptOutdated)))
    stops.set(r, "replaced by the model's new definition");
  const surplus = [...current]
    .sort(surplusOrder(revision))
    .slice(0, Math.max(0, current.length - desired));
  for (const r of surplus) stops.set(r, `surplus: the model wants ${desired}`);
  const remaining = staying.filter((r) => !stops.has(r)).sort(surplusOrder(revision));
  const max = model.definition.replicas.max;
  const rollingOut = remaining.some((r) => r.modelRevision !== revision);
  const limit = max + (rollingOut && !isInPlace(model) ? 1 : 0);
  for (const r of remaining.slice(0, Math.max(0, remaining.length - limit)))
    stops.set(r, `above max ${max}`);
  return stops;
}

export type RolloutStep =
  { kind: "wait" } | { kind: "stop"; replica: ObservedReplica; reason: string } | { kind: "place" };

/**
 * The next step of a rollout, given the replicas left after this pass's stops (some outdated):
 * wait while a new replica is on its way, stop an old one first when in place, else place one.
 */
export function rolloutStep(
  model: DesiredModel,
  remaining: readonly ObservedReplica[],
  desired: number,
): RolloutStep {
  const current = remaining.filter((r) => r.modelRevision === model.revision);
  // One at a time: the next step waits for the new replica to be ready and the old one gone.
  if (current.some((r) => r.phase !== "ready")) return { kind: "wait" };
  if (remaining.some((r) => r.phase === "draining")) return { kind: "wait" };
  if (current.length >= desired) return { kind: "wait" };
  const oldest = remaining
    .filter((r) => r.modelRevision !== model.revision)
    .sort(surplusOrder(model.revision))[0];
  if (oldest && isInPlace(model) && remaining.length >= desired)
    return {
      kind: "stop",
      replica: oldest,
      reason: "restarting in place: stopped before its replacement starts",
    };
  return { kind: "place" };
}
