import { describe, expect, it } from "vitest";
import llama70b from "../sizing/fixtures/llama-3.1-70b.config.json";
import llama8b from "../sizing/fixtures/llama-3.1-8b.config.json";
import qwen3Moe from "../sizing/fixtures/qwen3-235b-a22b.config.json";
import { describeConfig, type ModelDescription } from "../sizing";
import { CPU_DECODE_EFFICIENCY } from "./cpu-speed";
import { exploreModel } from "./explore";
import { knownConfigFor } from "./known-configs";
import type { ExploreNode } from "./types";

function described(config: unknown): ModelDescription {
  const result = describeConfig(config);
  if (!result.ok) throw new Error(result.errors.join("; "));
  return result.description;
}

const H100_GB = 85.52;

function gpuNode(name: string, free: number, total = free, memoryGb = H100_GB): ExploreNode {
  const freeCards = Array.from({ length: free }, () => ({ gpuClass: "H100", memoryGb }));
  return { name, freeCards, cardsTotal: total, memoryGbTotal: 512 };
}

function cpuNode(name: string, memoryGbTotal: number, readGbPerSecond?: number): ExploreNode {
  const rate = readGbPerSecond === undefined ? undefined : readGbPerSecond * 1e9;
  return { name, freeCards: [], cardsTotal: 0, memoryGbTotal, memoryReadBytesPerSecond: rate };
}

const entry = (config: unknown, name = "m") => ({
  name,
  origin: "config" as const,
  description: described(config),
});

describe("exploreModel", () => {
  it("gives an 8B model one H100 with its full context on the node with the most free cards", () => {
    const answer = exploreModel(entry(llama8b), [gpuNode("a", 1, 8), gpuNode("b", 4)]);
    const [h100] = answer.gpu;
    expect(h100).toMatchObject({ gpuClass: "H100", bestNode: "b", cardsFree: 5 });
    expect(h100).toMatchObject({ verdict: "fits", cards: 1, tensorParallel: 1 });
    expect(h100?.contextTokens).toBe(131_072);
    expect(answer.fitsNow).toBe(true);
    expect(answer.needs).toBeUndefined();
  });

  it("shrinks a 70B's context on a node with 2 free H100s, naming the 4 that hold it all", () => {
    const [h100] = exploreModel(entry(llama70b), [gpuNode("a", 2, 8)]).gpu;
    expect(h100).toMatchObject({ verdict: "shrunk", cards: 2, tensorParallel: 2 });
    expect(h100?.cardsForFullContext).toBe(4);
    expect(h100?.contextTokens).toBeLessThan(131_072);
    expect(h100?.contextTokens).toBeGreaterThan(0);
  });

  it("splits a 235B mixture of experts over 8 cards, expert parallel", () => {
    const [h100] = exploreModel(entry(qwen3Moe), [gpuNode("a", 8)]).gpu;
    expect(h100).toMatchObject({ verdict: "fits", cards: 8, tensorParallel: 8 });
    expect(h100?.expertParallel).toBe(true);
  });

  it("says what a model that fits nowhere needs against the best node", () => {
    const answer = exploreModel(entry(qwen3Moe), [gpuNode("a", 3, 8), gpuNode("b", 1)]);
    expect(answer.gpu[0]?.verdict).toBe("needs_more_cards");
    expect(answer.fitsNow).toBe(false);
    expect(answer.needs).toMatchObject({
      code: "sizing.explore_needs_cards",
      params: { gpuClass: "H100", node: "a", free: 3, cards: 8 },
    });
  });

  it("says no count of small cards holds a model too large for them", () => {
    const answer = exploreModel(entry(qwen3Moe), [gpuNode("a", 2, 2, 2)]);
    expect(answer.gpu[0]?.verdict).toBe("too_large");
    expect(answer.needs?.code).toBe("sizing.explore_needs_larger_cards");
  });

  it("gives CPU nodes tokens per second from their read rate, unknown until measured", () => {
    const answer = exploreModel(entry(llama8b), [cpuNode("c1", 64, 50), cpuNode("c2", 64)]);
    const [measured, unmeasured] = answer.cpu;
    // 50 GB/s over 16.06 GB of bf16 weights, at the calibrated share of the rate.
    expect(measured).toMatchObject({ node: "c1", fitsMemory: true, memoryReadGbPerSecond: 50 });
    const expected = (50 / 16.06) * CPU_DECODE_EFFICIENCY;
    // Within the answer's rounding to one decimal.
    expect(Math.abs((measured?.tokensPerSecond ?? 0) - expected)).toBeLessThanOrEqual(0.06);
    expect(unmeasured?.tokensPerSecond).toBeUndefined();
    expect(answer.fitsNow).toBe(true);
  });

  it("names the CPU node with the most memory when the weights fit in none", () => {
    const answer = exploreModel(entry(llama70b), [cpuNode("c1", 64, 50), cpuNode("c2", 128)]);
    expect(answer.fitsNow).toBe(false);
    expect(answer.needs).toMatchObject({
      code: "sizing.explore_needs_memory",
      params: { node: "c2", memoryGb: 128 },
    });
  });

  it("answers an empty fleet with a sentence, not a crash", () => {
    expect(exploreModel(entry(llama8b), []).needs?.code).toBe("sizing.explore_no_room");
  });

  it("knows the Llama 3.1 8B preset's architecture by its source", () => {
    const known = knownConfigFor("meta-llama/Llama-3.1-8B-Instruct");
    expect(described(known).parameters.total).toBe(described(llama8b).parameters.total);
    expect(knownConfigFor("someone/unknown")).toBeUndefined();
  });
});
