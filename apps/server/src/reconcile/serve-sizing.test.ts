// A replica started on cards that cannot hold its context beside the weights starts with what
// fits, saying so; one whose weights do not fit is failed with the reason and never started.
import { parseModelDefinition } from "@llmgw/domain";
import type { EnvelopeInit } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import type { ReconcileDeps } from "./deps";
import { sendStart } from "./frames";
import type { ReplicaRecord } from "./replica-book";

const parsed = parseModelDefinition({
  name: "llama",
  source: "meta-llama/Llama-3.1-8B-Instruct",
  profiles: [{ name: "gpu", engine: "vllm", gpu: "L4-24G" }],
});
if (!parsed.ok) throw new Error(parsed.errors.join("; "));
const model = parsed.model;

function setup(cardMemoryBytes: bigint) {
  const record: ReplicaRecord = {
    ...{ id: "llama-1", model: "llama", profile: "gpu", modelRevision: 1, nodeId: "n1" },
    ...{ gpuIndexes: [0], phase: "placing", message: "", createdAtMs: 0, engine: "vllm" },
    ...{ host: null, port: null, fetchProgress: null, phaseChangedAtMs: 0, lastUsedAtMs: null },
    ...{ isLostStopped: false, lastSentMs: 0 },
  };
  const sent: EnvelopeInit[] = [];
  const events: Array<{ kind: string; params: Record<string, unknown> }> = [];
  const updates: Array<Partial<ReplicaRecord>> = [];
  const gpus = [{ index: 0, memoryBytesTotal: cardMemoryBytes }];
  const deps = {
    book: {
      get: () => record,
      update: async (_id: string, change: Partial<ReplicaRecord>) => void updates.push(change),
    },
    catalog: { current: () => ({ get: () => model }) },
    registry: { get: () => ({ register: { nodeName: "n1", hardware: { gpus } } }) },
    links: { send: (_nodeId: string, init: EnvelopeInit) => sent.push(init) > 0 },
    events: {
      record: (kind: string, _id: string, params: Record<string, unknown>) =>
        events.push({ kind, params }),
    },
    replicaSecret: new Uint8Array(32).fill(1),
    startTimeoutMs: 60_000,
    nowMs: () => 5_000,
    log: () => undefined,
  } as unknown as ReconcileDeps;
  return { deps, sent, events, updates };
}

describe("sizing a replica as it starts", () => {
  it("shrinks the trained context to what a 24 GB card holds, with an event and a line", () => {
    const { deps, sent, events, updates } = setup(24_000_000_000n);
    expect(sendStart(deps, "llama-1")).toBe(true);
    const start = sent[0]?.msg?.case === "startReplica" ? sent[0].msg.value : undefined;
    expect(start?.contextLength).toBeGreaterThan(2_048);
    expect(start?.contextLength).toBeLessThan(131_072);
    expect(events.map((e) => e.kind)).toEqual(["replica.context-shrunk"]);
    expect(events[0]?.params).toMatchObject({
      askedTokens: 131_072,
      grantedTokens: start?.contextLength,
    });
    expect(updates[0]?.message).toMatch(/^context shrunk to fit the cards: /);
  });

  it("refuses weights that do not fit at all before starting, failing the replica with why", () => {
    const { deps, sent, events, updates } = setup(12_000_000_000n);
    expect(sendStart(deps, "llama-1")).toBe(false);
    expect(sent).toEqual([]);
    expect(updates[0]).toMatchObject({ phase: "failed" });
    expect(updates[0]?.message).toMatch(/refused before starting: the weights take/);
    expect(events.map((e) => e.kind)).toEqual(["replica.failed"]);
  });
});
