import { describe, expect, it } from "vitest";
import type { ModelView } from "@llmgw/api";
import { explanationText, modelDetail, modelsTable, presetsTable } from "./models-view";

function model(overrides: Partial<ModelView>): ModelView {
  return {
    name: "sim-chat",
    definition: { name: "sim-chat", profiles: [{ name: "sim", engine: "sim" }] },
    revision: 1,
    state: "ready",
    replicasDesired: 2,
    replicasReady: 2,
    replicasTotal: 2,
    consecutiveFailures: 0,
    isParked: false,
    lastError: null,
    unplaceableReasons: [],
    fallbacks: [],
    owner: null,
    updatedAt: "2030-01-01T00:00:00.000Z",
    updatedBy: "admin",
    externalKey: null,
    ...overrides,
  };
}

describe("models table", () => {
  it("aligns NAME STATE READY/DESIRED ENGINE OWNER LAST ERROR and shows why a model is short", () => {
    const text = modelsTable([
      model({}),
      model({
        name: "llama-3.1-8b-instruct",
        definition: { profiles: [{ engine: "vllm" }, { engine: "sglang" }, { engine: "vllm" }] },
        state: "unplaceable",
        replicasReady: 0,
        replicasDesired: 1,
        owner: "team:research",
        unplaceableReasons: ["sim-cpu-a: no GPU", "sim-l40s-a: 0 of 4 cards free"],
      }),
      model({
        name: "broken",
        state: "parked",
        isParked: true,
        replicasReady: 0,
        lastError: "engine exited with code 1\nstack trace",
      }),
    ]);
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+STATE\s+READY\/DESIRED\s+ENGINE\s+OWNER\s+LAST ERROR$/);
    expect(lines[1]).toMatch(/^sim-chat\s+ready\s+2\/2\s+sim\s+-\s+-$/);
    expect(lines[2]).toMatch(
      /unplaceable\s+0\/1\s+vllm,sglang\s+team:research\s+sim-cpu-a: no GPU$/,
    );
    expect(lines[3]).toMatch(/parked\s+0\/2\s+sim\s+-\s+engine exited with code 1 stack trace$/);
    const stateColumn = lines[0]?.indexOf("STATE");
    expect(lines.slice(1).map((line) => line.indexOf(line.split(/\s{2,}/)[1] ?? ""))).toEqual([
      stateColumn,
      stateColumn,
      stateColumn,
    ]);
  });
});

describe("model detail", () => {
  it("lists the facts, the reasons it cannot be placed and the definition as YAML", () => {
    const text = modelDetail(
      model({
        isParked: true,
        state: "parked",
        lastError: "never ready",
        fallbacks: ["spare"],
        unplaceableReasons: ["node-a: busy"],
      }),
    );
    expect(text).toMatch(/^state\s+parked \(parked: `llmgw ctl retry` clears it\)$/m);
    expect(text).toMatch(/^fallbacks\s+spare$/m);
    expect(text).toMatch(/^cannot be placed:\n {2}- node-a: busy$/m);
    expect(text).toMatch(
      /^definition:\n {2}name: sim-chat\n {2}profiles:\n {4}- name: sim\n {6}engine: sim$/m,
    );
  });
});

describe("presets and placement", () => {
  it("says whether a preset fits now and, when not, why", () => {
    const text = presetsTable([
      {
        name: "sim-chat",
        description: "simulated chat",
        definition: {},
        needs: ["CPU"],
        fits: true,
        reasons: [],
      },
      {
        name: "llama-3.1-8b-instruct",
        description: "Llama",
        definition: {},
        needs: ["1 GPU ≥ 8.0, ≥ 24 GB"],
        fits: false,
        reasons: ["no card has 24 GB"],
      },
    ]);
    expect(text).toMatch(/^sim-chat\s+yes\s+CPU\s+simulated chat$/m);
    expect(text).toMatch(
      /^llama-3\.1-8b-instruct\s+no\s+1 GPU ≥ 8\.0, ≥ 24 GB\s+no card has 24 GB$/m,
    );
  });

  it("prints one line per node and the summary", () => {
    expect(
      explanationText({ model: "m", lines: ["a: fits", "b: no GPU"], summary: "placed on a" }),
    ).toBe("model m:\n  a: fits\n  b: no GPU\nplaced on a\n");
    expect(
      explanationText({
        model: "m",
        lines: ["[p] placed on a", "[p] a: chosen"],
        summary: "placed on a",
      }),
    ).toBe("model m:\n  [p] placed on a\n  [p] a: chosen\n");
  });
});

describe("an external model's key", () => {
  const external = (externalKey: ModelView["externalKey"]) =>
    model({
      name: "gpt-ext",
      definition: { name: "gpt-ext", external: { url: "https://api.example.com/v1", model: "m" } },
      replicasDesired: 0,
      replicasReady: 0,
      externalKey,
    });

  it("says where the key comes from, never the key, and what to do when there is none", () => {
    expect(modelDetail(external("sealed"))).toMatch(/^provider key\s+sealed in the store$/m);
    expect(modelDetail(external("files"))).toMatch(/^provider key\s+read from its key files$/m);
    expect(modelsTable([external("none")])).toMatch(
      /^gpt-ext\s+ready\s+0\/0\s+external\s+-\s+no provider key: llmgw ctl model key set gpt-ext --key-file F$/m,
    );
    expect(modelsTable([external("sealed")])).toMatch(
      /^gpt-ext\s+ready\s+0\/0\s+external\s+-\s+-$/m,
    );
    expect(modelDetail(model({}))).not.toMatch(/provider key/);
  });
});
