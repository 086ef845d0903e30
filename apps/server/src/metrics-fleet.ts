// Gauges computed from live state when /metrics is scraped: per card load and who holds it, and
// model health. A measurement the agent did not report is left out, never written as zero.
import { Gauge, Registry } from "prom-client";
import { desiredReplicas, nodeLiveness, shardsOf } from "@llmgw/domain";
import type { FleetView } from "./fleet/fleet-view";

type Labels = Record<string, string>;
export type Sample = [Labels, number | undefined];

/** A label value or help text as the exposition format writes it (prom-client's escaping). */
const escapeText = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
const escapeLabelValue = (value: string) => escapeText(value).replace(/"/g, '\\"');

/**
 * A gauge whose series exist only while a scrape reads them, computed from `samples` each time,
 * so the server keeps no label set per node and card between scrapes (about 50 a node of 8 cards).
 * `get()` (JSON, tests) answers as any Gauge does; a ScrapeRegistry writes its text straight from
 * the samples instead (see there).
 */
class ScrapedGauge extends Gauge {
  private readonly family: { name: string; help: string };

  constructor(
    config: ConstructorParameters<typeof Gauge>[0],
    private readonly samples: () => Sample[],
  ) {
    super(config);
    this.family = { name: config.name, help: config.help };
  }

  override async get() {
    const metric = await super.get();
    this.reset();
    return metric;
  }

  /** The family's exposition text, as prom-client's Registry writes a Gauge's (no final newline). */
  text(): string {
    const lines: string[] = [];
    const values: number[] = [];
    // A label set given twice keeps its first place and its last value, as Gauge.set does.
    const seen = new Map<string, number>();
    for (const [labels, value] of this.samples()) {
      if (value === undefined || !Number.isFinite(value)) continue;
      let series = this.family.name;
      let separator = "{";
      for (const name in labels) {
        series += `${separator}${name}="${escapeLabelValue(labels[name] as string)}"`;
        separator = ",";
      }
      if (separator === ",") series += "}";
      const at = seen.get(series);
      if (at !== undefined) {
        values[at] = value;
        continue;
      }
      seen.set(series, lines.length);
      lines.push(series);
      values.push(value);
    }
    for (let i = 0; i < lines.length; i += 1) lines[i] = `${lines[i]} ${values[i]}`;
    const { name, help } = this.family;
    const head = `# HELP ${name} ${escapeText(help)}\n# TYPE ${name} gauge`;
    return lines.length === 0 ? head : `${head}\n${lines.join("\n")}`;
  }
}

// prom-client's Registry writes each metric's text in getMetricsAsString, a method its typings
// leave out (prom-client is pinned; metrics-nodes.test.ts compares the text with its own Gauge's).
type RegistryInternals = { getMetricsAsString(metric: unknown): Promise<string> };
const registryText = (Registry.prototype as unknown as RegistryInternals).getMetricsAsString;

/**
 * The server's registry: a scraped gauge's lines are written straight from its samples. At 2,000
 * nodes a scrape holds about 96,000 of their series, and prom-client's own path (a label hash and
 * an entry a series when set, then arrays and strings a label when written) made several hundred
 * bytes of garbage a series, which grew V8's heap by tens of MiB at each scrape.
 */
export class ScrapeRegistry extends Registry {
  getMetricsAsString(metric: unknown): Promise<string> {
    if (metric instanceof ScrapedGauge) return Promise.resolve(metric.text());
    return registryText.call(this, metric);
  }
}

/** A gauge whose series are computed at each scrape; an undefined value leaves its series out. */
export function gauge(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
  samples: () => Sample[],
): Gauge {
  return new ScrapedGauge(
    {
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        for (const [labels, value] of samples())
          if (value !== undefined && Number.isFinite(value)) this.set(labels, value);
      },
    },
    samples,
  );
}

function cardSamples(
  fleet: FleetView,
  pick: (sample: {
    utilizationPercent?: number;
    memoryBytesUsed?: bigint;
    temperatureCelsius?: number;
  }) => number | bigint | undefined,
): Sample[] {
  const out: Sample[] = [];
  for (const live of fleet.registry.all()) {
    if (!live.isConnected) continue;
    for (const gpu of live.register.hardware?.gpus ?? []) {
      const sample = live.samplesByUuid.get(gpu.uuid);
      const value = sample ? pick(sample) : undefined;
      out.push([
        { node: live.register.nodeName, gpu: String(gpu.index) },
        value === undefined ? undefined : Number(value),
      ]);
    }
  }
  return out;
}

function cardGauges(registry: Registry, fleet: FleetView): void {
  gauge(
    registry,
    "llmgw_gpu_utilization_percent",
    "GPU utilisation as last reported.",
    ["node", "gpu"],
    () => cardSamples(fleet, (s) => s.utilizationPercent),
  );
  gauge(
    registry,
    "llmgw_gpu_memory_used_bytes",
    "GPU memory in use as last reported.",
    ["node", "gpu"],
    () => cardSamples(fleet, (s) => s.memoryBytesUsed),
  );
  gauge(
    registry,
    "llmgw_gpu_temperature_celsius",
    "GPU temperature as last reported.",
    ["node", "gpu"],
    () => cardSamples(fleet, (s) => s.temperatureCelsius),
  );
  gauge(registry, "llmgw_gpu_memory_total_bytes", "GPU memory installed.", ["node", "gpu"], () =>
    fleet.registry
      .all()
      .flatMap((live) =>
        (live.register.hardware?.gpus ?? []).map((gpu): Sample => [
          { node: live.register.nodeName, gpu: String(gpu.index) },
          Number(gpu.memoryBytesTotal),
        ]),
      ),
  );
  // Health is known only for a node that answers: 1 when its last heartbeat sampled the card.
  gauge(
    registry,
    "llmgw_gpu_healthy",
    "1 when the card's node answers and sampled it, 0 when the node answers without it.",
    ["node", "gpu"],
    () =>
      fleet.registry
        .all()
        .filter(
          (live) =>
            nodeLiveness(fleet.registry.heard(live), fleet.nowMs(), fleet.liveness) === "ready" &&
            live.heartbeat !== null,
        )
        .flatMap((live) =>
          (live.register.hardware?.gpus ?? []).map((gpu): Sample => [
            { node: live.register.nodeName, gpu: String(gpu.index) },
            live.samplesByUuid.has(gpu.uuid) ? 1 : 0,
          ]),
        ),
  );
  gauge(
    registry,
    "llmgw_gpu_assigned",
    "1 for each card a replica holds, with the replica, model and owner.",
    ["node", "gpu", "replica", "model", "owner"],
    () => {
      const catalog = fleet.catalog.current();
      return fleet.book.active().flatMap((r) => {
        const owner = catalog.get(r.model)?.owner;
        const ownerName = owner
          ? Object.entries(owner)
              .map(([kind, value]) => `${kind}:${String(value)}`)
              .join(",")
          : "";
        // A replica spanning nodes holds cards on every shard's node.
        return shardsOf(r).flatMap((shard) =>
          shard.gpuIndexes.map((index): Sample => [
            {
              node: nodeName(fleet, shard.nodeId),
              gpu: String(index),
              replica: r.id,
              model: r.model,
              owner: ownerName,
            },
            1,
          ]),
        );
      });
    },
  );
  gauge(
    registry,
    "llmgw_replica_shard_phase",
    "1 for each shard of a replica spanning nodes, with its rank, node and phase (rank 0 leads).",
    ["replica", "model", "rank", "node", "phase"],
    () =>
      fleet.book.active().flatMap((r) =>
        (r.shards ?? []).map((shard): Sample => [
          {
            replica: r.id,
            model: r.model,
            rank: String(shard.rank),
            node: nodeName(fleet, shard.nodeId),
            phase: shard.phase,
          },
          1,
        ]),
      ),
  );
}

function nodeName(fleet: FleetView, nodeId: string): string {
  return fleet.registry.get(nodeId)?.register.nodeName ?? nodeId;
}

function modelGauges(registry: Registry, fleet: FleetView): void {
  const perModel = (value: (name: string, revision: number) => number) => (): Sample[] =>
    fleet.catalog
      .current()
      .models.map((m): Sample => [
        { model: m.name },
        value(m.name, fleet.catalog.meta(m.name)?.revision ?? 1),
      ]);
  const health = (name: string) => fleet.health.get(name);
  gauge(
    registry,
    "llmgw_model_replicas_desired",
    "Replicas a model should have now.",
    ["model"],
    perModel((name, revision) => {
      const definition = fleet.catalog.current().get(name);
      if (!definition || health(name)?.isParked) return 0;
      return desiredReplicas({ definition, revision, autoscaleAdded: fleet.autoscaleAdded(name) });
    }),
  );
  gauge(
    registry,
    "llmgw_model_replicas_ready",
    "Ready replicas of a model (0 is reported, so an alert can fire).",
    ["model"],
    perModel((name) => fleet.book.ofModel(name).filter((r) => r.phase === "ready").length),
  );
  gauge(
    registry,
    "llmgw_model_start_failures_consecutive",
    "Failed starts in a row.",
    ["model"],
    perModel((name) => health(name)?.consecutiveFailures ?? 0),
  );
  gauge(
    registry,
    "llmgw_model_parked",
    "1 while a model is parked after repeated failed starts.",
    ["model"],
    perModel((name) => (health(name)?.isParked ? 1 : 0)),
  );
  gauge(
    registry,
    "llmgw_model_unplaceable",
    "1 while no node can take a replica a model needs.",
    ["model"],
    perModel((name) => (fleet.unplaceable.has(name) ? 1 : 0)),
  );
}

export function registerFleetMetrics(registry: Registry, fleet: FleetView): void {
  cardGauges(registry, fleet);
  modelGauges(registry, fleet);
}
