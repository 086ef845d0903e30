// Quota gauges per scope and resource, from the same answer as `ctl quota` and the Quotas page, so
// an alert fires on the figures an operator then looks at. One scrape reads the quotas once for
// all four gauges. Resources are `gpus:CLASS`, `cores` and `memory_gib`.
import { Gauge, type Registry } from "prom-client";
import type { QuotasService, ScopeQuotaView } from "@llmgw/api";

/** Four gauges collected in one scrape share one read; a later scrape reads again. */
const SNAPSHOT_REUSE_MS = 1_000;

type Field = "held" | "guaranteed" | "limit" | "borrowed";

const GAUGES: ReadonlyArray<{ field: Field; help: string }> = [
  {
    field: "held",
    help: "What the scope holds now: its own models' replicas and those of the scopes beneath it.",
  },
  { field: "guaranteed", help: "What the scope is guaranteed (0 for a resource not named)." },
  {
    field: "limit",
    help: "The most the scope may hold; absent for a resource that is not limited.",
  },
  {
    field: "borrowed",
    help: "What the scope holds beyond its guarantee (taken back when needed).",
  },
];

function quotaResourceLabel(resource: string): string {
  return resource === "memory" ? "memory_gib" : resource;
}

function snapshots(quotas: Pick<QuotasService, "list">, nowMs: () => number) {
  let last: { atMs: number; views: Promise<ScopeQuotaView[]> } | null = null;
  return (): Promise<ScopeQuotaView[]> => {
    const atMs = nowMs();
    if (!last || atMs - last.atMs > SNAPSHOT_REUSE_MS) last = { atMs, views: quotas.list() };
    return last.views;
  };
}

export function registerQuotaMetrics(
  registry: Registry,
  quotas: Pick<QuotasService, "list">,
  nowMs: () => number = Date.now,
): void {
  const read = snapshots(quotas, nowMs);
  for (const { field, help } of GAUGES) {
    new Gauge({
      name: `llmgw_quota_${field}`,
      help,
      labelNames: ["scope", "resource"],
      registers: [registry],
      async collect() {
        const views = await read();
        this.reset();
        for (const view of views)
          for (const line of view.lines) {
            const value = line[field];
            if (value === null) continue;
            this.set({ scope: view.scope, resource: quotaResourceLabel(line.resource) }, value);
          }
      },
    });
  }
}
