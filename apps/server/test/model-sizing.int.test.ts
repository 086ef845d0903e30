// The sizing actions end to end on the simulated fleet: `models.setGpus` restarts replicas one
// at a time with surge (a new replica ready before an old one stops), `models.setContext`
// changes the catalog, and a refused change leaves the catalog as it was.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import { simGpuModel, simWeightsSource, startFleet, type Fleet } from "./harness";

const SHORT_TIMINGS = {
  LLMGW_RESYNC_INTERVAL_MS: "300",
};

describe("model sizing", () => {
  let fleet: Fleet;

  beforeAll(async () => {
    fleet = await startFleet({
      env: SHORT_TIMINGS,
      agents: [{ name: "size-a", profile: "h100x8" }],
    });
    const source = await simWeightsSource("it-size");
    await fleet.api.models.add.mutate({
      definition: simGpuModel("sized", source, { min: 2, max: 2 }),
    });
    await fleet.readyReplicas("sized", 2, 60_000);
  }, 120_000);

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  it("restarts on more cards one at a time, each new replica ready before an old one stops", async () => {
    const { api } = fleet;
    const result = await api.models.setGpus.mutate({ name: "sized", gpus: 2 });
    expect(result.changed).toBe(true);
    expect(result.notes.at(-1)?.code).toBe("sizing.restart_surge");
    expect(result.model.definition).toMatchObject({
      profiles: [{ gpus: 2, tensor_parallel: 2 }],
    });
    // Watch the rollout: never fewer than two ready, and a time when one old and one new served
    // together (one at a time, not all at once).
    let oneOfEach = false;
    let fewestServing = Number.POSITIVE_INFINITY;
    // Each change of what the book shows, so a failure says which replica left "ready" and when.
    const timeline: string[] = [];
    const startedMs = Date.now();
    await waitFor(
      async () => {
        const live = (await api.replicas.list.query({ model: "sized" })).filter(
          (r) => r.phase !== "stopped",
        );
        const ready = live.filter((r) => r.phase === "ready");
        const shown = live
          .map((r) => `${r.id.slice(0, 8)}/${r.gpuIndexes.length}:${r.phase}`)
          .join(" ");
        if (timeline.at(-1)?.endsWith(shown) !== true)
          timeline.push(`+${Date.now() - startedMs} ms ${shown}`);
        const oldReady = ready.filter((r) => r.gpuIndexes.length === 1).length;
        const newReady = ready.filter((r) => r.gpuIndexes.length === 2).length;
        fewestServing = Math.min(fewestServing, ready.length);
        if (newReady === 1 && oldReady === 1) oneOfEach = true;
        return newReady === 2 && live.length === 2 ? true : undefined;
      },
      {
        what: "two ready 2-card replicas of sized and nothing else",
        timeoutMs: 90_000,
        intervalMs: 100,
      },
    );
    expect(oneOfEach, timeline.join("\n")).toBe(true);
    expect(fewestServing, timeline.join("\n")).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it("sets the context in the catalog as a new revision", async () => {
    const before = await fleet.api.models.get.query({ name: "sized" });
    const result = await fleet.api.models.setContext.mutate({
      name: "sized",
      contextTokens: 8_192,
      slots: 2,
    });
    expect(result.model.revision).toBe(before.revision + 1);
    expect(result.model.definition).toMatchObject({
      profiles: [{ context_length: 8_192, slots: 2 }],
    });
  });

  it("refuses a card count no node has and leaves the catalog as it was", async () => {
    const before = await fleet.api.models.get.query({ name: "sized" });
    await expect(fleet.api.models.setGpus.mutate({ name: "sized", gpus: 16 })).rejects.toThrow(
      /no node could hold a replica of "sized" on 16 cards.*the most cards of its class on one node is 8/,
    );
    const after = await fleet.api.models.get.query({ name: "sized" });
    expect(after.revision).toBe(before.revision);
    expect(after.definition).toEqual(before.definition);
  });
});
