import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ExploreAnswer, ExploreModelView } from "@llmgw/api";
import { parseCtlArgs } from "../program";
import { configName, exploreText, readConfigs } from "./explore";

const note = (text: string) => ({ code: "sizing.x", params: {}, text });

function model(over: Partial<ExploreModelView>): ExploreModelView {
  return {
    ...{ name: "m", origin: "config", architecture: "llama", parametersBillions: 70.6 },
    ...{ activeParametersBillions: 70.6, weightGb: 141.1, gpu: [], cpu: [], fitsNow: true },
    notes: [],
    ...over,
  };
}

const h100 = {
  ...{ gpuClass: "H100", cardMemoryGb: 85.52, bestNode: "gpu-1", cardsFreeOnBestNode: 2 },
  ...{ cardsFree: 2, cards: 2, tensorParallel: 2, expertParallel: false, contextTokens: 21_248 },
  ...{ cardsForWeights: 2, cardsForFullContext: 4, notes: [note("the context is shrunk")] },
};

describe("ctl explore", () => {
  it("takes --config more than once, and --json", () => {
    const parsed = parseCtlArgs([
      "explore",
      "--config",
      "a.json",
      "--config",
      "b/config.json",
      "--json",
    ]);
    if (typeof parsed === "number") throw new Error("explore was refused");
    expect(parsed.values).toEqual({ config: ["a.json", "b/config.json"], json: true });
    expect(parseCtlArgs(["explore", "extra"])).toBe(2);
  });

  it("prints a row per GPU class and CPU node, then each model's sentences", () => {
    const answer: ExploreAnswer = {
      models: [
        model({
          name: "llama-70b",
          gpu: [{ ...h100, verdict: "shrunk" }],
          cpu: [{ node: "cpu-1", memoryGb: 256, fitsMemory: true, tokensPerSecond: 0.4 }],
        }),
        model({
          name: "huge",
          fitsNow: false,
          gpu: [{ ...h100, verdict: "needs_more_cards", cards: 8, cardsForWeights: 8 }],
          cpu: [{ node: "cpu-1", memoryGb: 256, fitsMemory: false }],
          needs: note("needs 8 H100 (85.52 GB) on one node; the best node, gpu-1, has 2 free"),
        }),
      ],
    };
    const lines = exploreText(answer).split("\n");
    expect(lines[0]).toMatch(/^MODEL\s+CLASS\s+CARDS\s+TP\s+EP\s+CONTEXT\s+VERDICT$/);
    expect(lines[1]).toMatch(
      /^llama-70b\s+H100 on gpu-1\s+2\s+2\s+-\s+21248\s+fits, context shrunk$/,
    );
    expect(lines[2]).toMatch(/^llama-70b\s+CPU on cpu-1\s+-.*fits, about 0.4 tokens\/s$/);
    expect(lines[3]).toMatch(/^huge\s+H100 on gpu-1\s+8 \(2 free\)\s+2\s+.*needs more free cards$/);
    expect(lines[4]).toMatch(/^huge\s+CPU on cpu-1.*needs more than 256 GB$/);
    const text = lines.join("\n");
    expect(text).toMatch(
      /llama-70b \(70.6B parameters, 141.1 GB of weights\):\n {2}the context is shrunk/,
    );
    expect(text).toMatch(/ {2}needs 8 H100 .* has 2 free/);
  });

  it("says speed is unknown until a CPU node is measured, and what to do with nothing to size", () => {
    const answer = { models: [model({ cpu: [{ node: "c", memoryGb: 64, fitsMemory: true }] })] };
    expect(exploreText(answer)).toMatch(/fits, speed unknown until measured/);
    expect(exploreText({ models: [] })).toMatch(/give --config FILE/);
  });

  it("reads the files given, named by their folder or file name", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctl-explore-"));
    await writeFile(join(dir, "qwen3.json"), '{"a": 1}');
    expect(await readConfigs([join(dir, "qwen3.json")])).toEqual([
      { name: "qwen3", json: '{"a": 1}' },
    ]);
    expect(configName("models/Llama-3.1-8B/config.json")).toBe("Llama-3.1-8B");
    await expect(readConfigs([join(dir, "missing.json")])).rejects.toThrow(
      /cannot read --config .*missing\.json/,
    );
  });
});
