// What every /v1 request adds to the gateway's series, kept as plain numbers per model and handed
// to prom-client only when the registry is scraped. prom-client's own `inc` and `observe` hash a
// label object and build value records on every call: about 5 % of a request's CPU one at a time
// (session 14's profile in docs/benchmarks.md). Here a request costs one Map lookup and a few
// additions; a scrape turns the numbers into the same series prom-client would have written.
import { Histogram, type Registry } from "prom-client";

/** Upper bounds of the time histograms, in seconds (Prometheus's `le`). */
export const SECONDS_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120,
] as const;

/** One histogram's numbers for one model: per-bucket counts (not yet cumulative), sum, count. */
export class Buckets {
  readonly counts = new Float64Array(SECONDS_BUCKETS.length);
  sum = 0;
  count = 0;

  add(seconds: number): void {
    if (!Number.isFinite(seconds)) return;
    this.sum += seconds;
    this.count += 1;
    for (let at = 0; at < SECONDS_BUCKETS.length; at += 1)
      if (seconds <= (SECONDS_BUCKETS[at] ?? Infinity)) {
        this.counts[at] = (this.counts[at] ?? 0) + 1;
        return;
      }
  }
}

/** A model's numbers, found with one lookup per request. */
export class ModelTally {
  /** Answers by HTTP status. */
  readonly requests = new Map<number, number>();
  promptTokens = 0;
  completionTokens = 0;
  readonly latency = new Buckets();
  readonly firstByte = new Buckets();
  /** Attempts sent to each endpoint (retries count again), by replica id. */
  readonly attempts = new Map<string, number>();
}

/** Every model's tally, made on its first request and kept, as prom-client keeps its series. */
export class GatewayTallies {
  private readonly models = new Map<string, ModelTally>();

  of(model: string): ModelTally {
    let tally = this.models.get(model);
    if (tally === undefined) {
      tally = new ModelTally();
      this.models.set(model, tally);
    }
    return tally;
  }

  entries(): IterableIterator<[string, ModelTally]> {
    return this.models.entries();
  }
}

interface SeriesValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/**
 * A prom-client Histogram (so the registry lists, formats and aggregates it as one) whose values
 * come from the tallies when read; `observe` on it is never called.
 */
export class TalliedHistogram extends Histogram<"model" | "le"> {
  constructor(
    private readonly spec: { name: string; help: string; registry: Registry },
    private readonly read: (tally: ModelTally) => Buckets,
    private readonly tallies: GatewayTallies,
  ) {
    super({
      name: spec.name,
      help: spec.help,
      labelNames: ["model"],
      buckets: [...SECONDS_BUCKETS],
      registers: [spec.registry],
    });
  }

  override get(): ReturnType<Histogram<"model" | "le">["get"]> {
    const values: SeriesValue[] = [];
    const { name } = this.spec;
    for (const [model, tally] of this.tallies.entries()) {
      const buckets = this.read(tally);
      if (buckets.count === 0) continue;
      let below = 0;
      for (const [at, bound] of SECONDS_BUCKETS.entries()) {
        below += buckets.counts[at] ?? 0;
        values.push({ labels: { le: bound, model }, value: below, metricName: `${name}_bucket` });
      }
      values.push(
        { labels: { le: "+Inf", model }, value: buckets.count, metricName: `${name}_bucket` },
        { labels: { model }, value: buckets.sum, metricName: `${name}_sum` },
        { labels: { model }, value: buckets.count, metricName: `${name}_count` },
      );
    }
    const read = { name, help: this.spec.help, type: "histogram", aggregator: "sum", values };
    // prom-client's typings give `type` as an enum and a `collect`; its registry reads the string
    // type its own classes return, and nothing reads `collect` from what `get` answers.
    return Promise.resolve(
      read as unknown as Awaited<ReturnType<Histogram<"model" | "le">["get"]>>,
    );
  }

  /** What the registry reads for the text format (prom-client's own method name). */
  getForPromString(): ReturnType<TalliedHistogram["get"]> {
    return this.get();
  }
}
