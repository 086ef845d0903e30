// The endpoints of a model: its ready replicas that have an address, or, for an external model,
// one endpoint per provider key (`external:MODEL#1`, `#2`): the key sealed in the store when one
// is set, else each key file, else one endpoint that answers "no key" until a key is given. The
// live state (in-flight count, breaker, the engine's scraped queue) is kept per endpoint id, so an
// endpoint keeps its history while the replica book and the catalog change around it. The replica
// book tells the pool of each change and the pool files replica endpoints by model then, so a
// request reads its model's endpoints by name and never walks the book.
import {
  Breaker,
  chooseEndpoint,
  externalKeyFiles,
  type BreakerPolicy,
  type ExternalModel,
} from "@llmgw/domain";
import type { Catalog } from "@llmgw/domain";
import type { FleetView } from "../fleet/fleet-view";
import type { ReplicaRecord } from "../reconcile/replica-book";
import { ModelEndpointIndex } from "./endpoint-index";

export interface ExternalTarget {
  /** The provider's name for the model, written into the request body. */
  upstreamModel: string;
  /** The key file to read on use; null: the key sealed in the store. */
  keyFile: string | null;
  /**
   * Which key this is: the file, or the sealed value as stored (a new key seals anew). A key that
   * changes is a new endpoint: the old key's refusals must not keep the new one resting.
   */
  keySource: string;
  /** The model's key count: with a single key, the provider's 401 is the client's. */
  keyCount: number;
  /** A ComfyUI server with no key files: with no sealed key either, it is called with none. */
  isKeyOptional: boolean;
}

export interface Endpoint {
  /** The replica id, or `external:MODEL#n`; used in metrics, usage and messages. */
  id: string;
  model: string;
  /** Engine name for a replica (to read its metrics); "external" otherwise. */
  engine: string;
  baseUrl: string;
  inFlight: number;
  breaker: Breaker;
  /** Requests the engine reports waiting; null while unknown. External endpoints stay null. */
  waiting: number | null;
  weight: number;
  /** Set for a provider key; absent for a replica. */
  external?: ExternalTarget;
  /** A replica's derived key, made on its first request (an HMAC, not made again for each). */
  replicaKey?: string;
}

/** What the pool reads of the replica book: a record by id, and every change as it is made. */
type ReplicaFeed = Pick<FleetView["book"], "get" | "watch">;

/** An external model's endpoints as last built, kept while its catalog and sealed key stay. */
interface ExternalEntry {
  catalog: Catalog;
  sealed: string | null;
  endpoints: readonly Endpoint[];
}

export class EndpointPool {
  private readonly live = new Map<string, Endpoint>();
  /** Ready replicas with an address, by model, kept from the book's changes. */
  private readonly serving = new ModelEndpointIndex<Endpoint>();
  private readonly externals = new Map<string, ExternalEntry>();
  private readonly unwatch: () => void;
  private turn = 0;

  constructor(
    private readonly book: ReplicaFeed,
    private readonly catalog: Pick<FleetView["catalog"], "current" | "meta">,
    private readonly breakerPolicy: BreakerPolicy,
  ) {
    this.unwatch = book.watch((id, record) => this.replicaChanged(id, record));
  }

  /** Stops following the book (the gateway stopped). */
  close(): void {
    this.unwatch();
  }

  /** The model's endpoints: ready replicas with an address, or its provider keys. */
  endpointsOf(model: string): readonly Endpoint[] {
    const catalog = this.catalog.current();
    const external = catalog.get(model)?.external;
    if (external) return this.externalEndpoints(catalog, model, external);
    return this.serving.of(model);
  }

  /** Ready replica endpoints of every model, for the load scraper (never external ones). */
  replicaEndpoints(): Endpoint[] {
    return this.serving.all();
  }

  /** Whether any endpoint of the model would take a request now. */
  hasAvailable(model: string, nowMs: number): boolean {
    return this.endpointsOf(model).some((endpoint) => endpoint.breaker.canTry(nowMs));
  }

  /** How many of the model's endpoints would take a request now (counted, nothing allocated). */
  triable(model: string, nowMs: number): number {
    let count = 0;
    for (const endpoint of this.endpointsOf(model)) if (endpoint.breaker.canTry(nowMs)) count += 1;
    return count;
  }

  /** The least loaded endpoint whose breaker admits a request, not already tried. */
  choose(model: string, tried: ReadonlySet<string>, nowMs: number): Endpoint | undefined {
    const candidates = this.endpointsOf(model).map((endpoint) => ({
      endpoint,
      id: endpoint.id,
      inFlight: endpoint.inFlight,
      isAvailable: endpoint.breaker.canTry(nowMs),
      waiting: endpoint.external ? undefined : endpoint.waiting,
      weight: endpoint.weight,
    }));
    this.turn = (this.turn + 1) % 1_000_000;
    return chooseEndpoint(candidates, tried, this.turn)?.endpoint;
  }

  /** Every endpoint with live state; forgets replicas and external keys no longer there. */
  all(): Endpoint[] {
    const catalog = this.catalog.current();
    for (const [id, endpoint] of this.live) {
      const isGone = endpoint.external
        ? !catalog.get(endpoint.model)?.external
        : !this.book.get(id);
      if (isGone) this.live.delete(id);
    }
    for (const [model, entry] of this.externals)
      if (entry.catalog !== catalog) this.externals.delete(model);
    return [...this.live.values()];
  }

  /** Marks when the replica last served, for the reconciler's idle decisions. */
  touch(endpoint: Endpoint, nowMs: number): void {
    if (endpoint.external) return;
    const record = this.book.get(endpoint.id);
    if (record) record.lastUsedAtMs = nowMs;
  }

  /** Files a replica that serves now under its model, and unfiles one that does not. */
  private replicaChanged(id: string, record: ReplicaRecord | undefined): void {
    const isServing = record?.phase === "ready" && record.host !== null && record.port !== null;
    if (record && isServing) this.serving.put(record.model, this.replicaEndpoint(record));
    else this.serving.remove(id);
  }

  private replicaEndpoint(record: ReplicaRecord): Endpoint {
    return this.remember(record.id, {
      model: record.model,
      engine: record.engine,
      baseUrl: `http://${record.host}:${record.port}`,
      weight: 1,
    });
  }

  /** Built again only when the catalog was swapped or the model's sealed key changed. */
  private externalEndpoints(
    catalog: Catalog,
    model: string,
    external: ExternalModel,
  ): readonly Endpoint[] {
    const sealed = this.catalog.meta(model)?.externalKeySealed ?? null;
    const kept = this.externals.get(model);
    if (kept?.catalog === catalog && kept.sealed === sealed) return kept.endpoints;
    // One entry per external model of the catalog, replaced as the catalog moves on.
    const endpoints = this.buildExternal(model, external, sealed);
    this.externals.set(model, { catalog, sealed, endpoints });
    return endpoints;
  }

  private buildExternal(model: string, external: ExternalModel, sealed: string | null): Endpoint[] {
    const files = externalKeyFiles(external);
    const isSealed = sealed !== null || files.length === 0;
    const keys = isSealed ? [{ file: null, weight: 1 }] : files;
    return keys.map((key, index) =>
      this.remember(`external:${model}#${index + 1}`, {
        model,
        engine: "external",
        baseUrl: external.url.replace(/\/+$/, ""),
        weight: key.weight,
        external: {
          upstreamModel: external.model ?? model,
          keyFile: key.file,
          keySource: key.file ?? `sealed:${sealed ?? "none"}`,
          keyCount: keys.length,
          isKeyOptional: external.api === "comfyui" && files.length === 0,
        },
      }),
    );
  }

  /** The endpoint with this id, its state kept unless where it points has changed. */
  private remember(
    id: string,
    fields: Pick<Endpoint, "model" | "engine" | "baseUrl" | "weight" | "external">,
  ): Endpoint {
    let endpoint = this.live.get(id);
    const isSame =
      endpoint !== undefined &&
      endpoint.model === fields.model &&
      endpoint.baseUrl === fields.baseUrl &&
      endpoint.external?.keySource === fields.external?.keySource &&
      endpoint.external?.upstreamModel === fields.external?.upstreamModel;
    if (!endpoint || !isSame) {
      // Requests already sent still finish on the old target and count down here; the breaker
      // judged the old target, so the new one starts with a fresh one.
      endpoint = {
        id,
        ...fields,
        inFlight: endpoint?.inFlight ?? 0,
        breaker: new Breaker(this.breakerPolicy),
        waiting: null,
      };
      this.live.set(id, endpoint);
    } else {
      endpoint.weight = fields.weight;
      if (fields.external) endpoint.external = fields.external;
    }
    return endpoint;
  }
}
