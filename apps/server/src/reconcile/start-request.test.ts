import { parseModelDefinition, type ModelDefinitionInput } from "@llmgw/domain";
import { describe, expect, it } from "vitest";
import type { ReplicaRecord } from "./replica-book";
import { startRequestFor } from "./start-request";

const SECRET = new Uint8Array(32).fill(7);

function definition(overrides: Partial<ModelDefinitionInput> = {}) {
  const parsed = parseModelDefinition({
    name: "bge-m3",
    source: "BAAI/bge-m3",
    profiles: [{ name: "l40s", engine: "vllm", gpu: { min_memory_gb: 16 } }],
    ...overrides,
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.model;
}

const record: ReplicaRecord = {
  id: "bge-m3-r1",
  model: "bge-m3",
  profile: "l40s",
  modelRevision: 1,
  nodeId: "node-a",
  gpuIndexes: [0],
  phase: "placing",
  message: "",
  createdAtMs: 0,
  engine: "vllm",
  host: null,
  port: null,
  fetchProgress: null,
  phaseChangedAtMs: 0,
  lastUsedAtMs: null,
  isLostStopped: false,
  lastSentMs: 0,
};

describe("startRequestFor", () => {
  it("starts an embedding model's engine in its embedding mode", () => {
    const start = startRequestFor(record, definition({ embeddings: true }), SECRET, 60_000);
    expect(start?.embeddings).toBe(true);
  });

  it("starts every other model for generation", () => {
    const start = startRequestFor(record, definition(), SECRET, 60_000);
    expect(start?.embeddings).toBe(false);
    expect(start).toMatchObject({ engine: "vllm", servedModelName: "bge-m3", gpuIndexes: [0] });
  });
});
