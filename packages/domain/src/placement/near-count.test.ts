// The spread score's near term reads a rack's or PDU's counts only where the domain's mark says it
// holds the model. Held here to the plain sum over the node's domains, over random fleets whose
// replicas (some spanning nodes) arrive while searches for other models move the marks, and across
// the emptying a kept index goes through between passes.
import { describe, expect, it } from "vitest";
import { domainLabel } from "../facility/domains";
import { seededRandom } from "../seeded-random";
import { addReplica, buildFleet, clearFleet } from "./fleet";
import type { Fleet } from "./fleet-types";
import { isNearModel, nearCount } from "./spread";
import { node } from "./test-fixtures";

function plainSum(fleet: Fleet, nodeIndex: number, model: string): number {
  const usage = fleet.nodes[nodeIndex];
  let total = 0;
  for (const domain of usage?.spreadDomains ?? [])
    total += fleet.domainModelCounts.get(domain)?.get(model) ?? 0;
  return total;
}

describe("nearCount", () => {
  it("equals the replicas of the model in the node's rack and PDU, whatever model was marked last", () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const random = seededRandom(seed);
      const pick = (n: number) => Math.floor(random() * n);
      const nodes = Array.from({ length: 20 + pick(40) }, (_, at) => {
        const labels: Record<string, string> = {};
        if (random() < 0.9) labels[domainLabel("rack")] = `r${pick(6)}`;
        if (random() < 0.8) labels[domainLabel("pdu")] = `p${pick(9)}`;
        return node(`n${at}`, { labels });
      });
      const fleet = buildFleet(nodes, []);
      const models = Array.from({ length: 3 + pick(8) }, (_, at) => `m${at}`);
      let replicas = 0;
      for (let pass = 0; pass < 3; pass += 1) {
        for (let step = 0; step < 60; step += 1) {
          const model = models[pick(models.length)] as string;
          const roll = random();
          if (roll < 0.4) {
            const shards = Array.from({ length: 1 + pick(3) }, () => ({
              nodeId: `n${pick(nodes.length)}`,
              cardIndexes: [],
            }));
            replicas += 1;
            addReplica(fleet, { id: `x${replicas}`, model, shards, memoryGb: 0, cpuCores: 0 });
          } else if (roll < 0.6) {
            // A search for this model marks its domains.
            isNearModel(fleet, fleet.nodes[pick(nodes.length)] as Fleet["nodes"][0], model);
          } else {
            const at = pick(nodes.length);
            expect(nearCount(fleet, fleet.nodes[at] as Fleet["nodes"][0], model)).toBe(
              plainSum(fleet, at, model),
            );
          }
        }
        for (let at = 0; at < nodes.length; at += 1)
          for (const model of models)
            expect(nearCount(fleet, fleet.nodes[at] as Fleet["nodes"][0], model)).toBe(
              plainSum(fleet, at, model),
            );
        clearFleet(fleet);
      }
    }
  });
});
