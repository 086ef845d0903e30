// The explorer end to end: a real server with two simulated agents (eight H100s, and a node with no
// cards), asked through tRPC what fits now. The preset whose architecture the server knows and a
// config.json given are planned against the live free cards; a config that is not JSON is refused
// by name, as a client sees it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import { rejectionOf, startFleet, type Fleet } from "./harness";

/** A 70B-shaped config.json (Llama 3.1 70B's numbers): two H100s hold it, four its whole context. */
const LLAMA_70B = {
  model_type: "llama",
  hidden_size: 8192,
  intermediate_size: 28_672,
  num_attention_heads: 64,
  num_key_value_heads: 8,
  num_hidden_layers: 80,
  vocab_size: 128_256,
  max_position_embeddings: 131_072,
  torch_dtype: "bfloat16",
};

describe("explore.run on a simulated fleet", () => {
  let fleet: Fleet;

  beforeAll(async () => {
    fleet = await startFleet({
      agents: [
        { name: "it-ex-gpu", profile: "h100x8" },
        { name: "it-ex-cpu", profile: "cpu" },
      ],
    });
    await waitFor(
      async () => ((await fleet.api.nodes.list.query()).length >= 2 ? true : undefined),
      {
        what: "both agents registered",
        timeoutMs: 30_000,
      },
    );
  });

  afterAll(async () => fleet?.stop());

  it("plans the known preset and a given config on the live cards, and the CPU node", async () => {
    const { models } = await fleet.api.explore.run.mutate({
      configs: [{ name: "my-70b", json: JSON.stringify(LLAMA_70B) }],
    });
    const preset = models.find((m) => m.name === "llama-3.1-8b-instruct");
    expect(preset?.origin).toBe("preset");
    expect(preset?.gpu[0]).toMatchObject({ bestNode: "it-ex-gpu", cardsFree: 8, verdict: "fits" });
    expect(preset?.gpu[0]?.cards).toBe(1);
    const given = models.find((m) => m.name === "my-70b");
    expect(given?.gpu[0]).toMatchObject({ verdict: "fits", cards: 4, tensorParallel: 4 });
    expect(given?.cpu.map((option) => option.node)).toEqual(["it-ex-cpu"]);
  });

  it("gives the CPU node an expected speed once its agent has measured its memory read rate", async () => {
    // The agent measures a few seconds after it starts and reports the rate in its heartbeats.
    const option = await waitFor(
      async () => {
        const { models } = await fleet.api.explore.run.mutate({});
        const cpu = models.find((m) => m.name === "llama-3.1-8b-instruct")?.cpu[0];
        return cpu?.tokensPerSecond === undefined ? undefined : cpu;
      },
      { what: "a measured CPU node", timeoutMs: 30_000 },
    );
    expect(option.node).toBe("it-ex-cpu");
    expect(option.memoryReadGbPerSecond).toBeGreaterThan(0);
    expect(option.tokensPerSecond).toBeGreaterThan(0);
  });

  it("refuses a config that is not JSON, naming it, with no internal detail", async () => {
    const message = await rejectionOf(
      fleet.api.explore.run.mutate({ configs: [{ name: "broken", json: "{ nope" }] }),
    );
    expect(message).toMatch(/^config "broken" cannot be sized: it is not JSON/);
    expect(message).not.toMatch(/at .*\.ts|stack/i);
  });
});
