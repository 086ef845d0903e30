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

  it("gives the engine the server's start timeout unless its profile sets its own", () => {
    expect(startRequestFor(record, definition(), SECRET, 600_000)?.startTimeoutMs).toBe(600_000);
    const slow = definition({
      profiles: [
        { name: "l40s", engine: "vllm", gpu: { min_memory_gb: 16 }, start_timeout_ms: 1_800_000 },
      ],
    });
    expect(startRequestFor(record, slow, SECRET, 600_000)?.startTimeoutMs).toBe(1_800_000);
  });

  it("starts every other model for generation", () => {
    const start = startRequestFor(record, definition(), SECRET, 60_000);
    expect(start?.embeddings).toBe(false);
    expect(start).toMatchObject({ engine: "vllm", servedModelName: "bge-m3", gpuIndexes: [0] });
  });

  it("gives each shard of a replica spanning nodes its own cards, its rank and the leader's address", () => {
    const shard = (rank: number, nodeId: string, gpuIndexes: number[]) => ({
      ...{ rank, nodeId, gpuIndexes, phase: "placing" as const, message: "" },
      ...{ phaseChangedAtMs: 0, lastSentMs: 0 },
    });
    const spanning: ReplicaRecord = {
      ...record,
      shards: [shard(0, "node-a", [0]), shard(1, "node-b", [3])],
      leaderAddress: null,
    };
    const model = definition();
    expect(startRequestFor(spanning, model, SECRET, 60_000, 0)).toMatchObject({
      ...{ nodeRank: 0, nodeCount: 2, leaderAddress: "", gpuIndexes: [0] },
    });
    // Until the leader said where to join it, the worker's frame has no address to join.
    expect(startRequestFor(spanning, model, SECRET, 60_000, 1)?.leaderAddress).toBe("");
    spanning.leaderAddress = "10.0.0.1:29500";
    expect(startRequestFor(spanning, model, SECRET, 60_000, 1)).toMatchObject({
      ...{ nodeRank: 1, nodeCount: 2, leaderAddress: "10.0.0.1:29500", gpuIndexes: [3] },
    });
    expect(startRequestFor(spanning, model, SECRET, 60_000, 2)).toBeNull();
  });

  it("passes the context and slots to the engine with the profile's own arguments after", () => {
    const model = definition({
      profiles: [
        {
          name: "l40s",
          engine: "vllm",
          gpu: { min_memory_gb: 16 },
          context_length: 8_192,
          slots: 4,
          args: ["--enforce-eager"],
        },
      ],
    });
    const start = startRequestFor(record, model, SECRET, 60_000);
    expect(start).toMatchObject({
      contextLength: 8_192,
      args: ["--max-num-seqs", "4", "--enforce-eager"],
    });
  });

  it("gives llama.cpp the context of all its slots, which --ctx-size shares", () => {
    const model = definition({
      source: "/models/bge.gguf",
      profiles: [{ name: "l40s", engine: "llamacpp", context_length: 4_096, slots: 2 }],
    });
    const start = startRequestFor(record, model, SECRET, 60_000);
    expect(start).toMatchObject({ contextLength: 8_192, args: ["--parallel", "2"] });
  });

  it("starts with the context sizing shrank to, not the profile's", () => {
    const model = definition({
      profiles: [
        { name: "l40s", engine: "vllm", gpu: { min_memory_gb: 16 }, context_length: 131_072 },
      ],
    });
    expect(startRequestFor(record, model, SECRET, 60_000, 0, 40_960)?.contextLength).toBe(40_960);
  });
});

describe("startRequestFor and mirrors", () => {
  const mirrors = [
    { name: "peer", baseUrl: "http://10.0.0.8/" },
    { name: "primary", baseUrl: "http://10.0.0.9/" },
  ];
  const sent = mirrors.map((mirror) => ({ ...mirror, signedUrls: {}, expiresUnixMs: 0n }));

  it("sends the mirrors, in the order given, to a model loading a mirror path", () => {
    const model = definition({ source: "mirror:org/bge/model.safetensors" });
    const start = startRequestFor(record, model, SECRET, 1_000, 0, undefined, mirrors);
    expect(start?.mirrors).toEqual(sent);
  });

  it("sends them to a model named by a hub id, which the node fetches from the mirrors", () => {
    const model = definition({ source: "hf:org/tiny" });
    const start = startRequestFor(record, model, SECRET, 1_000, 0, undefined, mirrors);
    expect(start?.mirrors).toEqual(sent);
  });

  it("sends them for an adapter on the mirrors too, and none to a model that needs none", () => {
    const withAdapter = definition({
      adapters: [{ name: "sql", source: "mirror:org/sql/adapter_model.safetensors" }],
    });
    expect(
      startRequestFor(record, withAdapter, SECRET, 1_000, 0, undefined, mirrors)?.mirrors,
    ).toHaveLength(2);
    const local = definition({ source: "/models/bge.gguf" });
    expect(startRequestFor(record, local, SECRET, 1_000, 0, undefined, mirrors)?.mirrors).toEqual(
      [],
    );
  });
});

describe("startRequestFor and an S3 store", () => {
  const signedUrls = {
    "org/bge/model.safetensors": "http://s3/models/org/bge/model.safetensors?X-Amz-Signature=a",
    "org/bge/model.safetensors.sha256":
      "http://s3/m/org/bge/model.safetensors.sha256?X-Amz-Signature=b",
    "org/other/model.safetensors": "http://s3/models/org/other/model.safetensors?X-Amz-Signature=c",
    "api/models/org/tiny/revision/main":
      "http://s3/m/api/models/org/tiny/revision/main?X-Amz-Signature=d",
    "org/tiny/resolve/main/config.json":
      "http://s3/m/org/tiny/resolve/main/config.json?X-Amz-Signature=e",
  };
  const store = { name: "store", baseUrl: "", signedUrls, expiresUnixMs: 1_900_000_000_000 };

  it("sends only the signed URLs of the files the replica reads, and no base URL", () => {
    const model = definition({ source: "mirror:org/bge/model.safetensors" });
    const start = startRequestFor(record, model, SECRET, 1_000, 0, undefined, [store]);
    expect(start?.mirrors).toEqual([
      {
        name: "store",
        baseUrl: "",
        signedUrls: {
          "org/bge/model.safetensors": signedUrls["org/bge/model.safetensors"],
          "org/bge/model.safetensors.sha256": signedUrls["org/bge/model.safetensors.sha256"],
        },
        expiresUnixMs: 1_900_000_000_000n,
      },
    ]);
  });

  it("sends a hub repository's list and files", () => {
    const model = definition({ source: "hf:org/tiny" });
    const start = startRequestFor(record, model, SECRET, 1_000, 0, undefined, [store]);
    expect(Object.keys(start?.mirrors?.[0]?.signedUrls ?? {})).toEqual([
      "api/models/org/tiny/revision/main",
      "org/tiny/resolve/main/config.json",
    ]);
  });
});
