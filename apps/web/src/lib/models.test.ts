import type { ModelView, ReplicaView } from "@llmgw/api";
import { describe, expect, it } from "vitest";
import {
  canRetry,
  DEFINITION_TEMPLATE,
  definitionEngines,
  parseDefinitionText,
  sortModels,
} from "./models";
import { REPLICA_SORT_DEFAULT } from "./table-order";
import { sortReplicasBy } from "@llmgw/api/schemas";

function model(overrides: Partial<ModelView>): ModelView {
  return {
    name: "m",
    definition: {},
    revision: 1,
    state: "ready",
    replicasDesired: 1,
    replicasReady: 1,
    replicasTotal: 1,
    consecutiveFailures: 0,
    isParked: false,
    lastError: null,
    unplaceableReasons: [],
    fallbacks: [],
    owner: null,
    updatedAt: "2025-01-01T00:00:00.000Z",
    updatedBy: "admin",
    externalKey: null,
    ...overrides,
  };
}

function replica(overrides: Partial<ReplicaView>): ReplicaView {
  return {
    id: "r",
    model: "m",
    profile: "p",
    nodeId: "n",
    nodeName: "n",
    gpuIndexes: [],
    engine: "sim",
    phase: "ready",
    message: "",
    endpoint: null,
    phaseChangedAt: "2025-01-01T00:00:00.000Z",
    lastUsedAt: null,
    fetchProgress: null,
    shards: [],
    ...overrides,
  };
}

describe("definitionEngines", () => {
  it("lists each profile's engine once, and nothing for a definition without profiles", () => {
    const definition = {
      profiles: [{ engine: "vllm" }, { engine: "llamacpp" }, { engine: "vllm" }, { name: "x" }],
    };
    expect(definitionEngines(definition)).toEqual(["vllm", "llamacpp"]);
    expect(definitionEngines({})).toEqual([]);
    expect(definitionEngines({ profiles: "vllm" })).toEqual([]);
  });
});

describe("parseDefinitionText", () => {
  it("accepts a JSON object", () => {
    expect(parseDefinitionText('{"name":"a"}')).toEqual({ ok: true, definition: { name: "a" } });
    expect(parseDefinitionText(DEFINITION_TEMPLATE).ok).toBe(true);
  });

  it("names what is wrong with text that is not a JSON object", () => {
    expect(parseDefinitionText("  ")).toMatchObject({ ok: false, problem: "empty" });
    expect(parseDefinitionText("[1]")).toMatchObject({ ok: false, problem: "notObject" });
    expect(parseDefinitionText("null")).toMatchObject({ ok: false, problem: "notObject" });
    const broken = parseDefinitionText('{"name": ');
    expect(broken).toMatchObject({ ok: false, problem: "syntax" });
    expect(broken.ok ? "" : broken.message).not.toBe("");
  });
});

describe("ordering", () => {
  it("sorts models by name with numbers in numeric order", () => {
    const names = sortModels([
      model({ name: "m-10" }),
      model({ name: "m-2" }),
      model({ name: "a" }),
    ]).map((m) => m.name);
    expect(names).toEqual(["a", "m-2", "m-10"]);
  });

  it("sorts replicas by model, node and id", () => {
    const ids = sortReplicasBy(
      [
        replica({ id: "3", model: "b", nodeName: "n1" }),
        replica({ id: "2", model: "a", nodeName: "n2" }),
        replica({ id: "1", model: "a", nodeName: "n10" }),
      ],
      REPLICA_SORT_DEFAULT,
    ).map((r) => r.id);
    expect(ids).toEqual(["2", "1", "3"]);
  });
});

describe("canRetry", () => {
  it("is true only for a parked model", () => {
    expect(canRetry(model({ state: "parked", isParked: true }))).toBe(true);
    expect(canRetry(model({ state: "progressing" }))).toBe(false);
  });
});
