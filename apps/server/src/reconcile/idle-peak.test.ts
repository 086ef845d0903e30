import { describe, expect, it } from "vitest";
import { idlePeak, type CardPeak } from "./idle-peak";
import type { ReplicaRecord } from "./replica-book";

const RULE = { thresholdPercent: 5, minSamples: 3 };

function record(shards?: Array<{ nodeId: string; gpuIndexes: number[] }>): ReplicaRecord {
  return {
    ...{ id: "r1", model: "m", profile: "p", modelRevision: 1, nodeId: "n1" },
    ...{ gpuIndexes: [0, 1], phase: "ready", message: "", createdAtMs: 0, engine: "vllm" },
    ...{ host: null, port: null, fetchProgress: null, phaseChangedAtMs: 0, lastUsedAtMs: null },
    ...{ isLostStopped: false, lastSentMs: 0, leaderAddress: null },
    ...(shards
      ? {
          shards: shards.map((shard, rank) => ({
            ...{ rank, ...shard, phase: "ready" as const, message: "" },
            ...{ phaseChangedAtMs: 0, lastSentMs: 0 },
          })),
        }
      : {}),
  };
}

/** Card peaks by `node/index`; a card not listed was never measured. */
const peaks =
  (seen: Record<string, CardPeak>) =>
  (nodeId: string, index: number): CardPeak | null =>
    seen[`${nodeId}/${index}`] ?? null;

describe("idlePeak", () => {
  it("gives the busiest card's peak when every card of a one-node replica idles", () => {
    const seen = { "n1/0": { percent: 1, samples: 5 }, "n1/1": { percent: 3, samples: 5 } };
    expect(idlePeak(record(), peaks(seen), RULE)).toBe(3);
  });

  it("reads every shard of a replica spanning nodes, not only the leader's", () => {
    const shards = [
      { nodeId: "n1", gpuIndexes: [0, 1] },
      { nodeId: "n2", gpuIndexes: [0, 1] },
    ];
    const quietLeader = { "n1/0": { percent: 0, samples: 5 }, "n1/1": { percent: 0, samples: 5 } };
    // The worker shard is busy: the replica is serving, whatever its leader's cards say.
    const busyWorker = { "n2/0": { percent: 80, samples: 5 }, "n2/1": { percent: 0, samples: 5 } };
    expect(idlePeak(record(shards), peaks({ ...quietLeader, ...busyWorker }), RULE)).toBeNull();
    const quietWorker = { "n2/0": { percent: 4, samples: 5 }, "n2/1": { percent: 2, samples: 5 } };
    expect(idlePeak(record(shards), peaks({ ...quietLeader, ...quietWorker }), RULE)).toBe(4);
  });

  it("never calls idle what it could not measure: a card unseen or with too few samples", () => {
    const shards = [
      { nodeId: "n1", gpuIndexes: [0] },
      { nodeId: "n2", gpuIndexes: [0] },
    ];
    expect(idlePeak(record(shards), peaks({ "n1/0": { percent: 0, samples: 5 } }), RULE)).toBe(
      null,
    );
    const fresh = { "n1/0": { percent: 0, samples: 5 }, "n2/0": { percent: 0, samples: 2 } };
    expect(idlePeak(record(shards), peaks(fresh), RULE)).toBeNull();
  });

  it("does not call a replica without cards idle", () => {
    const cpu = { ...record(), gpuIndexes: [] };
    expect(idlePeak(cpu, peaks({}), RULE)).toBeNull();
  });
});
