// Ready replicas as endpoints. The live state (in-flight count, breaker) is kept per replica id,
// so an endpoint keeps its history while the replica book changes around it.
import { Breaker, chooseEndpoint, type BreakerPolicy } from "@llmgw/domain";
import type { ReplicaBook, ReplicaRecord } from "../reconcile/replica-book";

export interface Endpoint {
  id: string;
  replicaId: string;
  model: string;
  baseUrl: string;
  inFlight: number;
  breaker: Breaker;
}

export class EndpointPool {
  private readonly live = new Map<string, Endpoint>();
  private turn = 0;

  constructor(
    private readonly book: ReplicaBook,
    private readonly breakerPolicy: BreakerPolicy,
  ) {}

  /** Ready replicas of the model that have an address. */
  endpointsOf(model: string): Endpoint[] {
    return this.book
      .all()
      .filter((r) => r.model === model && r.phase === "ready" && r.host !== null && r.port !== null)
      .map((r) => this.endpointFor(r));
  }

  /** Whether any endpoint of the model would take a request now. */
  hasAvailable(model: string, nowMs: number): boolean {
    return this.endpointsOf(model).some((endpoint) => endpoint.breaker.canTry(nowMs));
  }

  /** Least in-flight among those whose breaker admits a request, not already tried. */
  choose(model: string, tried: ReadonlySet<string>, nowMs: number): Endpoint | undefined {
    const candidates = this.endpointsOf(model).map((endpoint) => ({
      endpoint,
      id: endpoint.id,
      inFlight: endpoint.inFlight,
      isAvailable: endpoint.breaker.canTry(nowMs),
    }));
    this.turn = (this.turn + 1) % 1_000_000;
    return chooseEndpoint(candidates, tried, this.turn)?.endpoint;
  }

  /** Every endpoint with live state; forgets replicas the book no longer holds. */
  all(): Endpoint[] {
    for (const id of this.live.keys()) if (!this.book.get(id)) this.live.delete(id);
    return [...this.live.values()];
  }

  /** Marks when the replica last served, for the reconciler's idle decisions. */
  touch(replicaId: string, nowMs: number): void {
    const record = this.book.get(replicaId);
    if (record) record.lastUsedAtMs = nowMs;
  }

  private endpointFor(record: ReplicaRecord): Endpoint {
    const baseUrl = `http://${record.host}:${record.port}`;
    let endpoint = this.live.get(record.id);
    if (!endpoint || endpoint.baseUrl !== baseUrl) {
      endpoint = {
        id: record.id,
        replicaId: record.id,
        model: record.model,
        baseUrl,
        inFlight: endpoint?.inFlight ?? 0,
        breaker: endpoint?.breaker ?? new Breaker(this.breakerPolicy),
      };
      this.live.set(record.id, endpoint);
    }
    return endpoint;
  }
}
