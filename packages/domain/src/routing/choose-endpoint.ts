// Endpoint choice: the least in-flight endpoint among those whose breaker admits a request,
// leaving out the ones this request already tried. Ties rotate so equal endpoints share the load.

export interface EndpointCandidate {
  id: string;
  inFlight: number;
  /** Whether its breaker admits a request now. */
  isAvailable: boolean;
}

export function chooseEndpoint<T extends EndpointCandidate>(
  candidates: readonly T[],
  tried: ReadonlySet<string>,
  tieBreak: number,
): T | undefined {
  let best: T[] = [];
  for (const candidate of candidates) {
    if (!candidate.isAvailable || tried.has(candidate.id)) continue;
    if (best.length === 0 || candidate.inFlight < best[0]!.inFlight) best = [candidate];
    else if (candidate.inFlight === best[0]!.inFlight) best.push(candidate);
  }
  if (best.length === 0) return undefined;
  return best[Math.abs(tieBreak) % best.length];
}
