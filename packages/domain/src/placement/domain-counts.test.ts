// The spread counts are kept by model and read by domain through a view. Held here to counts made
// from the replicas themselves (each replica once in each rack and PDU its known shards are in),
// over random fleets where replicas (some spanning nodes, some on nodes the fleet does not know)
// arrive while searches for other models move the marks, and across the emptying between passes.
import { describe, expect, it } from "vitest";
import { domainLabel } from "../facility/domains";
import { seededRandom } from "../seeded-random";
import { addReplica, buildFleet, clearFleet } from "./fleet";
import type { Fleet } from "./fleet-types";
import { isNearModel, nearCount } from "./spread";
import { node } from "./test-fixtures";
import type { ExistingReplica, PlacementNode } from "./types";

function domainsOf(node: PlacementNode): string[] {
  const domains: string[] = [];
  const rack = node.labels[domainLabel("rack")];
  const pdu = node.labels[domainLabel("pdu")];
  if (rack !== undefined) domains.push(`rack=${rack}`);
  if (pdu !== undefined) domains.push(`pdu=${pdu}`);
  return domains;
}

/** Domain → model → replicas, counted from the replicas alone. */
function expectedCounts(nodes: readonly PlacementNode[], replicas: readonly ExistingReplica[]) {
  const byDomain = new Map<string, Map<string, number>>();
  for (const replica of replicas) {
    const domains = new Set<string>();
    for (const shard of replica.shards) {
      const on = nodes.find((each) => each.id === shard.nodeId);
      for (const domain of on ? domainsOf(on) : []) domains.add(domain);
    }
    for (const domain of domains) {
      const models = byDomain.get(domain) ?? new Map<string, number>();
      models.set(replica.model, (models.get(replica.model) ?? 0) + 1);
      byDomain.set(domain, models);
    }
  }
  return byDomain;
}

function checkFleet(fleet: Fleet, nodes: PlacementNode[], replicas: ExistingReplica[]): void {
  const expected = expectedCounts(nodes, replicas);
  for (const [domain, counts] of fleet.domainModelCounts) {
    const models = expected.get(domain) ?? new Map<string, number>();
    expect(new Map(counts.entries()), domain).toEqual(models);
    expect(counts.size, domain).toBe(models.size);
    for (const model of ["m0", "m1", "m2", "m7"]) {
      expect(counts.get(model), `${domain} ${model}`).toBe(models.get(model));
      expect(counts.has(model)).toBe(models.has(model));
    }
  }
  fleet.nodes.forEach((usage, at) => {
    for (const model of ["m0", "m1", "m2", "m3"]) {
      let total = 0;
      for (const domain of domainsOf(nodes[at] as PlacementNode))
        total += expected.get(domain)?.get(model) ?? 0;
      expect(nearCount(fleet, usage, model), `${usage.node.id} ${model}`).toBe(total);
    }
  });
}

describe("the spread counts, kept by model and read by domain", () => {
  it("equal the replicas counted in each rack and PDU, pass after pass", () => {
    for (let seed = 1; seed <= 12; seed += 1) {
      const random = seededRandom(seed);
      const pick = (n: number) => Math.floor(random() * n);
      const nodes = Array.from({ length: 10 + pick(30) }, (_, at) => {
        const labels: Record<string, string> = {};
        if (random() < 0.9) labels[domainLabel("rack")] = `r${pick(5)}`;
        if (random() < 0.8) labels[domainLabel("pdu")] = `p${pick(7)}`;
        return node(`n${at}`, { labels });
      });
      const fleet = buildFleet(nodes, []);
      for (let pass = 0; pass < 3; pass += 1) {
        const replicas: ExistingReplica[] = [];
        for (let step = 0; step < 80; step += 1) {
          const model = `m${pick(5)}`;
          if (random() < 0.3) {
            // A search for this model marks its domains.
            isNearModel(fleet, fleet.nodes[pick(nodes.length)] as Fleet["nodes"][0], model);
            continue;
          }
          const shards = Array.from({ length: random() < 0.2 ? 2 + pick(2) : 1 }, () => ({
            nodeId: random() < 0.05 ? "gone" : `n${pick(nodes.length)}`,
            cardIndexes: [],
          }));
          const replica = { id: `r${step}`, model, shards, memoryGb: 0, cpuCores: 0 };
          replicas.push(replica);
          addReplica(fleet, replica);
          if (step % 20 === 0) checkFleet(fleet, nodes, replicas);
        }
        checkFleet(fleet, nodes, replicas);
        clearFleet(fleet);
        checkFleet(fleet, nodes, []);
      }
    }
  });
});
