// Endpoint choice: the least loaded endpoint among those whose breaker admits a request, leaving
// out the ones this request already tried. Load is what this gateway has in flight there plus the
// requests the engine itself reports waiting (scraped from its /metrics), divided by the
// endpoint's weight. Ties rotate so equal endpoints share the load.
import { must } from "../must";

export interface EndpointCandidate {
  id: string;
  inFlight: number;
  /** Whether its breaker admits a request now. */
  isAvailable: boolean;
  /** Requests waiting in the engine's own queue; null when unknown (never scraped, or it failed). */
  waiting?: number | null;
  /** Share of traffic relative to the others (external keys); 1 when absent. */
  weight?: number;
}

/**
 * The load used for choosing. An endpoint whose queue is unknown is taken to be as queued as the
 * busiest one that could be measured: an engine that cannot be measured must not look idle.
 */
export function endpointLoads(candidates: readonly EndpointCandidate[]): number[] {
  let worstKnown = 0;
  for (const c of candidates)
    if (c.waiting !== undefined && c.waiting !== null) worstKnown = Math.max(worstKnown, c.waiting);
  return candidates.map((c) => {
    const waiting = c.waiting === undefined ? 0 : (c.waiting ?? worstKnown);
    return (c.inFlight + waiting) / Math.max(c.weight ?? 1, 1e-6);
  });
}

export function chooseEndpoint<T extends EndpointCandidate>(
  candidates: readonly T[],
  tried: ReadonlySet<string>,
  tieBreak: number,
): T | undefined {
  const loads = endpointLoads(candidates);
  let best: T[] = [];
  let bestLoad = Infinity;
  candidates.forEach((candidate, index) => {
    if (!candidate.isAvailable || tried.has(candidate.id)) return;
    const load = must(loads[index], "endpoint load");
    if (load < bestLoad) {
      best = [candidate];
      bestLoad = load;
    } else if (load === bestLoad) best.push(candidate);
  });
  if (best.length === 0) return undefined;
  return best[Math.abs(tieBreak) % best.length];
}
