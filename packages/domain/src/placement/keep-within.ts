// keep_within: a replica spanning nodes talks between its shards on every token, so a profile can
// ask that all of them share one rack, row or room. The nodes that fit are grouped by that domain
// and the best domain holding enough of them, of one class, takes the replica.
import { domainLabel, domainOf } from "../facility/domains";
import type { Fleet } from "./fleet-types";
import { nodeFits } from "./predicates";
import { classOnNode, compareScores, scoreNode } from "./score";
import { candidatesFor, type Fit } from "./search";
import type { PlacementPolicy, PlacementRequest } from "./types";

type KeepWithin = NonNullable<PlacementRequest["keepWithin"]>;

interface DomainGroup {
  value: string;
  fits: Fit[];
}

/** The fitting nodes of the request, grouped by domain and class, each group best first. */
function groupsOf(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  classes: readonly string[],
  kind: KeepWithin,
): DomainGroup[] {
  const groups = new Map<string, DomainGroup>();
  for (const usage of candidatesFor(fleet, request, classes)) {
    const value = domainOf(usage.node.labels, kind);
    if (value === undefined || !nodeFits({ request, usage, policy, classes, fleet })) continue;
    const gpuClass =
      request.gpu === undefined ? undefined : classOnNode(usage, classes, request.gpus);
    const key = `${value}\u0000${gpuClass ?? ""}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { value, fits: [] }));
    group.fits.push({ usage, gpuClass, score: scoreNode(usage, request, gpuClass, fleet) });
  }
  for (const group of groups.values())
    group.fits.sort(
      (a, b) => compareScores(a.score, b.score) || a.usage.position - b.usage.position,
    );
  return [...groups.values()];
}

/**
 * The nodes for a kept-within replica: the domain whose `nodes`-th best fit scores best (ties to
 * the domain named first), or the most found in one domain when none holds enough.
 */
export function keptWithinFits(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  classes: readonly string[],
  kind: KeepWithin,
): Fit[] {
  let best: Fit[] = [];
  for (const group of groupsOf(fleet, policy, request, classes, kind)) {
    const chosen = group.fits.slice(0, request.nodes);
    if (best.length < request.nodes) {
      if (chosen.length > best.length) best = chosen;
      continue;
    }
    if (chosen.length < request.nodes) continue;
    const worst = chosen[chosen.length - 1];
    const bestWorst = best[best.length - 1];
    if (worst && bestWorst && compareScores(worst.score, bestWorst.score) < 0) best = chosen;
  }
  return best;
}

/** Why no domain could take the replica: how many fit in each, for the refusal's summary. */
export function keptWithinShortfall(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  classes: readonly string[],
  kind: KeepWithin,
): string {
  const counts = new Map<string, number>();
  for (const group of groupsOf(fleet, policy, request, classes, kind))
    counts.set(group.value, Math.max(counts.get(group.value) ?? 0, group.fits.length));
  const found = [...counts]
    .sort(([a], [b]) => a.localeCompare(b, "en"))
    .map(([value, n]) => `${kind} ${value} has ${n}`);
  const where = found.length > 0 ? found.join(", ") : `no node with ${domainLabel(kind)} fits`;
  return `needs ${request.nodes} nodes within one ${kind} (keep_within) and no ${kind} has them: ${where}`;
}
