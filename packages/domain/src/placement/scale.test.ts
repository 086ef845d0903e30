// The shape of the reconcile pass the benchmark measures (bench/placement): thousands of
// requests over one index. Here it guards against a change that makes placement quadratic.
import { describe, expect, it } from "vitest";
import { placeReplicas } from "./place";
import { cards, node, request } from "./test-fixtures";
import type { PlacementNode, PlacementRequest } from "./types";

function syntheticFleet(nodeCount: number): PlacementNode[] {
  const classes = ["H100-80G", "L40S", "A100-80G", "H200"];
  return Array.from({ length: nodeCount }, (_, index) =>
    node(`node-${index}`, {
      cards: cards(8, classes[index % classes.length], 80, 9.0),
      labels: { zone: index % 2 === 0 ? "a" : "b" },
    }),
  );
}

function syntheticRequests(replicaCount: number): PlacementRequest[] {
  const classes = ["H100-80G", "L40S", "A100-80G", "H200"];
  return Array.from({ length: replicaCount }, (_, index) =>
    request({
      replicaId: `model-${index % 400}/r${index}`,
      model: `model-${index % 400}`,
      gpu: classes[index % classes.length],
      gpus: 1 + (index % 4),
    }),
  );
}

describe("placement at fleet scale", () => {
  it("places 4,000 replicas on 2,000 nodes (16,000 cards) in one pass without double-booking", () => {
    const nodes = syntheticFleet(2_000);
    const requests = syntheticRequests(4_000);
    const started = performance.now();
    const results = placeReplicas({ nodes, replicas: [] }, requests);
    const elapsedMs = performance.now() - started;
    // Plain checks gathered into one assertion: thousands of expect() calls would cost more
    // than the placement they check.
    const held = new Set<string>();
    const problems: string[] = [];
    for (const result of results) {
      if (!result.ok) problems.push(`${result.replicaId}: ${result.summary}`);
      else
        for (const shard of result.shards)
          for (const index of shard.cardIndexes) {
            const key = `${shard.nodeId}#${index}`;
            if (held.has(key)) problems.push(`${key} handed out twice`);
            held.add(key);
          }
    }
    expect(problems).toEqual([]);
    expect(held.size).toBe(requests.reduce((sum, r) => sum + r.gpus, 0));
    // Generous: the point is to fail on a quadratic change (minutes), not to benchmark a CI box.
    expect(elapsedMs).toBeLessThan(20_000);
  });
});
