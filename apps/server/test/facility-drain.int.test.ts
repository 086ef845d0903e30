// A node drain end to end on the simulated fleet: a model with max 1 serves from one of two nodes;
// draining that node places a replacement on the other, and the old replica keeps serving until
// the new one is ready (surge), then stops naming the drain. Uncordoning lets replicas back.
import { waitFor } from "@llmgw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simGpuModel, simWeightsSource, startFleet, type Fleet } from "./harness";

const MODEL = "drain-me";

describe("facility: node drain with surge", () => {
  let fleet: Fleet;

  beforeAll(async () => {
    fleet = await startFleet({
      env: { LLMGW_RESYNC_INTERVAL_MS: "300" },
      agents: [
        { name: "it-drain-a", profile: "l40sx4" },
        { name: "it-drain-b", profile: "l40sx4" },
      ],
    });
    await waitFor(
      async () => ((await fleet.api.nodes.list.query()).length === 2 ? true : undefined),
      {
        what: "two nodes registered",
        timeoutMs: 60_000,
      },
    );
    const source = await simWeightsSource("it-drain-weights");
    await fleet.api.models.add.mutate({
      definition: simGpuModel(MODEL, source, { min: 1, max: 1 }),
    });
  });

  afterAll(async () => {
    await fleet?.stop(Boolean(process.env.IT_DUMP));
  });

  it("replaces the replica on the other node before stopping the old one", async () => {
    const [first] = await fleet.readyReplicas(MODEL, 1, 120_000);
    const replicas = await fleet.api.replicas.list.query({ model: MODEL });
    const old = replicas.find((r) => r.id === first?.id);
    if (!old) throw new Error("the first replica is not listed");
    const drained = await fleet.api.nodes.cordon.mutate({ id: old.nodeId, state: "draining" });
    expect(drained.cordon).toBe("draining");

    // Sampled until the old one stops: while it serves, and at the moment it stops, another
    // replica on the other node is what takes over; it never stops first.
    let sawBothLive = false;
    const stopped = await waitFor(
      async () => {
        const now = await fleet.api.replicas.list.query({ model: MODEL });
        const before = now.find((r) => r.id === old.id);
        const others = now.filter((r) => r.id !== old.id && r.phase !== "stopped");
        if (before?.phase === "ready" && others.length > 0) sawBothLive = true;
        if (before?.phase !== "stopped") return undefined;
        return { before, others };
      },
      { what: "the drained replica stopped", timeoutMs: 120_000, intervalMs: 100 },
    );
    expect(sawBothLive).toBe(true);
    expect(stopped.before.message).toContain("is draining; its replacement is ready");
    expect(stopped.others).toEqual([
      expect.objectContaining({
        phase: "ready",
        nodeName: expect.not.stringMatching(old.nodeName),
      }),
    ]);
    const events = await fleet.api.events.list.query({ kinds: ["node.draining"] });
    expect(events.events.map((e) => e.subjectId)).toContain(old.nodeId);
  });

  it("lists the drained node as draining until it is uncordoned", async () => {
    const nodes = await fleet.api.nodes.list.query();
    const drained = nodes.find((n) => n.cordon === "draining");
    expect(drained).toBeDefined();
    const undrained = await fleet.api.nodes.cordon.mutate({ id: drained?.id ?? "", state: null });
    expect(undrained.cordon).toBeNull();
  });
});
