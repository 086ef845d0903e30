// The quota gauges as Prometheus scrapes them, and the shipped alert rules checked against them:
// an alert on a metric the server does not export would never fire, and nobody would notice.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Registry } from "prom-client";
import { describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import type { ScopeQuotaView } from "@llmgw/api";
import { createMetrics } from "./metrics";
import { registerQuotaMetrics } from "./metrics-quotas";

const ALERTS_FILE = fileURLToPath(
  new URL("../../../deploy/prometheus/llmgw-alerts.yml", import.meta.url),
);

const VIEWS: ScopeQuotaView[] = [
  {
    scope: "team:ml",
    quota: null,
    atLimit: true,
    lines: [
      { resource: "gpus:H100-80G", held: 8, guaranteed: 4, limit: 8, borrowed: 4 },
      { resource: "memory", held: 96, guaranteed: 512, limit: null, borrowed: 0 },
    ],
  },
];

interface AlertRule {
  alert?: string;
  expr?: string;
  for?: string;
}

function alertRules(): AlertRule[] {
  const file = parse(readFileSync(ALERTS_FILE, "utf8")) as { groups?: { rules?: AlertRule[] }[] };
  return (file.groups ?? []).flatMap((group) => group.rules ?? []);
}

describe("quota metrics", () => {
  it("exports held, guaranteed, limit and borrowed per scope and resource, reading once per scrape", async () => {
    const registry = new Registry();
    const list = vi.fn(async () => VIEWS);
    registerQuotaMetrics(registry, { list }, () => 1_000);
    const text = await registry.metrics();
    expect(text).toContain('llmgw_quota_held{scope="team:ml",resource="gpus:H100-80G"} 8');
    expect(text).toContain('llmgw_quota_guaranteed{scope="team:ml",resource="memory_gib"} 512');
    expect(text).toContain('llmgw_quota_limit{scope="team:ml",resource="gpus:H100-80G"} 8');
    expect(text).toContain('llmgw_quota_borrowed{scope="team:ml",resource="gpus:H100-80G"} 4');
    // Memory is not limited: no limit sample, rather than a limit of 0.
    expect(text).not.toContain('llmgw_quota_limit{scope="team:ml",resource="memory_gib"}');
    expect(list).toHaveBeenCalledTimes(1);
  });

  it("ships a CapacityAtLimit alert held for 5 minutes, on quota metrics the server exports", async () => {
    const rules = alertRules();
    const atLimit = rules.find((rule) => rule.alert === "CapacityAtLimit");
    expect(atLimit?.for).toBe("5m");
    expect(atLimit?.expr).toMatch(/llmgw_quota_held\s*>=\s*llmgw_quota_limit/);

    const metrics = createMetrics({ list: async () => [] }, undefined, { list: async () => VIEWS });
    const exported = new Set(
      (await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name),
    );
    // The quota metrics here; test/alert-rules.int.test.ts holds every rule to a running server.
    const named = (atLimit?.expr ?? "").match(/llmgw_[a-z_]+/g) ?? [];
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(exported, `${name} is not exported`).toContain(name);
  });
});
