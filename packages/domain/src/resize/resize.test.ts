import { describe, expect, it } from "vitest";
import { parseModelDefinition, type ModelDefinitionInput } from "../catalog/model-definition";
import { knownConfigFor } from "../explore/known-configs";
import { cards, node } from "../placement/test-fixtures";
import type { ExistingReplica } from "../placement/types";
import { describeConfig } from "../sizing/describe";
import { resizeModel, type ResizeChange, type ResizeFleet } from "./resize";

const described = describeConfig(knownConfigFor("meta-llama/Llama-3.1-8B-Instruct"));
if (!described.ok) throw new Error(described.errors.join("; "));
const llama = described.description;

function definition(overrides: Partial<ModelDefinitionInput> = {}) {
  const parsed = parseModelDefinition({
    name: "llama",
    source: "meta-llama/Llama-3.1-8B-Instruct",
    profiles: [{ name: "h100", engine: "vllm", gpu: "H100-80G", gpus: 1 }],
    ...overrides,
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.model;
}

const fleet: ResizeFleet = { nodes: [node("n1"), node("n2", { cards: cards(4) })], replicas: [] };

function refusalOf(change: ResizeChange, model = definition(), on = fleet) {
  const result = resizeModel(model, change, on, llama);
  return result.ok ? undefined : result.refusal;
}

function changed(change: ResizeChange, model = definition(), on = fleet) {
  const result = resizeModel(model, change, on, llama);
  if (!result.ok) throw new Error(result.refusal.text);
  return result;
}

const running = (id: string, nodeId: string, card: number): ExistingReplica => ({
  id,
  model: "llama",
  shards: [{ nodeId, cardIndexes: [card] }],
  memoryGb: 0,
  cpuCores: 0,
});

describe("ctl model gpus", () => {
  it("changes the cards and tensor parallel together", () => {
    const result = changed({ kind: "gpus", gpus: 4 });
    expect(result.definition.profiles[0]).toMatchObject({ gpus: 4, tensor_parallel: 4 });
    expect(result.notes.map((n) => n.code)).toContain("sizing.tensor_parallel");
  });

  it("keeps llama.cpp's tensor parallel at 1: it splits layers itself", () => {
    const gguf = definition({
      source: "/models/llama.gguf",
      profiles: [{ name: "h100", engine: "llamacpp", gpu: "H100-80G", gpus: 1 }],
    });
    const result = resizeModel(gguf, { kind: "gpus", gpus: 2 }, fleet);
    expect(result.ok && result.definition.profiles[0]).toMatchObject({
      gpus: 2,
      tensor_parallel: 1,
    });
  });

  it("refuses a count that cannot split the KV heads, naming the counts that can", () => {
    const refusal = refusalOf({ kind: "gpus", gpus: 3 });
    expect(refusal?.code).toBe("sizing.split_invalid");
    expect(refusal?.params.validCounts).toBe("1, 2, 4, 8");
  });

  it("refuses a count no node has, naming the most one node has", () => {
    const refusal = refusalOf({ kind: "gpus", gpus: 16 });
    expect(refusal?.code).toBe("sizing.no_node_has_cards");
    expect(refusal?.params.mostCards).toBe(8);
  });

  it("refuses cards that cannot hold the asked context, naming the largest that fits", () => {
    const small = { nodes: [node("n1", { cards: cards(4, "L4-24G", 24) })], replicas: [] };
    const model = definition({
      profiles: [{ name: "l4", engine: "vllm", gpu: "L4-24G", gpus: 2, context_length: 131_072 }],
    });
    const refusal = refusalOf({ kind: "gpus", gpus: 1 }, model, small);
    expect(refusal?.code).toBe("sizing.context_too_long");
    expect(refusal?.params.largestTokens).toBeGreaterThan(2048);
    expect(refusal?.params.largestTokens).toBeLessThan(131_072);
  });

  it("refuses cards for a profile that runs on CPU", () => {
    const cpu = definition({ profiles: [{ name: "cpu", engine: "llamacpp" }] });
    expect(refusalOf({ kind: "gpus", gpus: 2 }, cpu)?.code).toBe("sizing.cpu_profile");
  });

  it("refuses a profile the model does not have, naming those it has", () => {
    const refusal = refusalOf({ kind: "gpus", gpus: 2, profile: "a100" });
    expect(refusal).toMatchObject({
      code: "sizing.profile_not_found",
      params: { profiles: "h100" },
    });
  });

  it("says a restart goes in place when there is no room beside, and marks --in-place", () => {
    const full = {
      nodes: [node("n1", { cards: cards(2) })],
      replicas: [running("a", "n1", 0), running("b", "n1", 1)],
    };
    const surge = changed({ kind: "gpus", gpus: 2 }, definition(), {
      ...full,
      nodes: [node("n1", { cards: cards(3) })],
    });
    expect(surge.notes.at(-1)?.code).toBe("sizing.restart_no_room_beside");
    const model = definition({
      profiles: [{ name: "h100", engine: "vllm", gpu: "H100-80G", gpus: 1 }],
    });
    const inPlace = changed({ kind: "gpus", gpus: 2, inPlace: true }, model, full);
    expect(inPlace.definition.restart).toBe("in-place");
    expect(inPlace.notes.at(-1)?.code).toBe("sizing.restart_in_place");
    const room = changed({ kind: "gpus", gpus: 2 }, model, { ...full, nodes: [node("n1")] });
    expect(room.definition.restart).toBeUndefined();
    expect(room.notes.at(-1)?.code).toBe("sizing.restart_surge");
  });
});

describe("ctl model context", () => {
  it("sets the context and slots together", () => {
    const result = changed({ kind: "context", contextTokens: 32_768, slots: 4 });
    expect(result.definition.profiles[0]).toMatchObject({ context_length: 32_768, slots: 4 });
    expect(result.notes.map((n) => n.code)).toContain("sizing.context_fits");
  });

  it("refuses a context past the trained one", () => {
    const refusal = refusalOf({ kind: "context", contextTokens: 200_000 });
    expect(refusal).toMatchObject({
      code: "sizing.context_past_trained",
      params: { trainedTokens: 131_072 },
    });
  });

  it("refuses a context the cards cannot hold for every slot", () => {
    const refusal = refusalOf({ kind: "context", contextTokens: 131_072, slots: 16 });
    expect(refusal?.code).toBe("sizing.context_too_long");
  });
});

describe("ctl model resources", () => {
  it("sets cores and memory", () => {
    const result = changed({ kind: "resources", cpuCores: 8, memoryGb: 32 });
    expect(result.definition.profiles[0]).toMatchObject({ cpu_cores: 8, memory_gb: 32 });
  });

  it("refuses what no node could hold, even empty", () => {
    const refusal = refusalOf({ kind: "resources", cpuCores: 8, memoryGb: 4_096 });
    expect(refusal?.code).toBe("sizing.no_node_holds");
    expect(refusal?.text).toMatch(/4096 GB/);
  });
});
