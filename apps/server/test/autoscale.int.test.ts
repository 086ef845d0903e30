// Autoscaling on queue depth end to end: a real server and agent, sim-engine replicas that
// generate one request at a time (so the rest wait in the engine's own queue, which /metrics
// reports), and a real client keeping six requests open. The model grows from 1 to 3 under that
// load, one step at a time, and shrinks back to 1 once the client stops.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import type { EventView } from "@llmgw/api";
import { simGpuModel, simWeightsSource, startFleet, type Fleet } from "./harness";

const MODEL = "grows";
const UP_AFTER_MS = 2_000;
const DOWN_AFTER_MS = 6_000;
const CLIENTS = 6;

describe("autoscaling on queue depth", () => {
  let fleet: Fleet;
  let key: string;

  beforeAll(async () => {
    fleet = await startFleet({
      env: { LLMGW_RESYNC_INTERVAL_MS: "300", LLMGW_SCRAPE_INTERVAL_MS: "250" },
      agents: [{ name: "it-autoscale-gpu", profile: "h100x8" }],
    });
    const source = await simWeightsSource("it-autoscale-weights");
    // One sequence at a time, 20 tokens a second: a 30-token answer holds the engine 1.5 s.
    const args = ["--max-num-seqs", "1", "--tokens-per-second", "20"];
    await fleet.api.models.add.mutate({
      definition: {
        ...simGpuModel(MODEL, source, { min: 1, max: 3, args }),
        autoscale: { up_after_ms: UP_AFTER_MS, down_after_ms: DOWN_AFTER_MS },
      },
    });
    await fleet.readyReplicas(MODEL, 1, 60_000);
    key = (await fleet.api.keys.create.mutate({ owner: "team:ml", models: ["*"] })).key;
  });

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  const scaleEvents = async (): Promise<EventView[]> => {
    const { events } = await fleet.api.events.list.query({
      kinds: ["model.scaled-up", "model.scaled-down"],
      subjectId: MODEL,
    });
    return [...events].sort((a, b) => a.id - b.id);
  };
  const live = async () =>
    (await fleet.api.replicas.list.query({ model: MODEL })).filter((r) => r.phase !== "stopped");

  /** Clients that each send one request after another until told to stop. */
  function startLoad() {
    let isStopped = false;
    const answers: number[] = [];
    const client = async () => {
      while (!isStopped) {
        const res = await fetch(`${fleet.v1}/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({
            model: MODEL,
            messages: [{ role: "user", content: "hi" }],
            max_tokens: 30,
          }),
        });
        await res.arrayBuffer();
        answers.push(res.status);
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);
    return {
      answers,
      async stop() {
        isStopped = true;
        await Promise.all(clients);
      },
    };
  }

  it("grows from 1 to 3 under a lasting queue and shrinks back to 1 once nothing waits", async () => {
    expect(await scaleEvents()).toEqual([]);
    const load = startLoad();
    let mostLive = 0;
    try {
      await waitFor(
        async () => {
          const replicas = await live();
          mostLive = Math.max(mostLive, replicas.length);
          return replicas.filter((r) => r.phase === "ready").length >= 3 || undefined;
        },
        { what: `3 ready replicas of ${MODEL} under load`, timeoutMs: 60_000 },
      );
      // At max with a queue still there: it holds, never a fourth.
      await new Promise((resolve) => setTimeout(resolve, UP_AFTER_MS * 2));
      mostLive = Math.max(mostLive, (await live()).length);
      // The model's view and its metric say what it wants now, not only its minimum.
      expect((await fleet.api.models.get.query({ name: MODEL })).replicasDesired).toBe(3);
      const metrics = await (await fetch(`${fleet.server.apiUrl}/metrics`)).text();
      expect(metrics).toMatch(
        new RegExp(`^llmgw_model_replicas_desired\\{model="${MODEL}"\\} 3$`, "m"),
      );
    } finally {
      await load.stop();
    }
    expect(mostLive).toBe(3);
    expect(load.answers.length).toBeGreaterThan(0);
    expect(load.answers.every((status) => status === 200)).toBe(true);

    const ups = await scaleEvents();
    expect(ups.map((e) => [e.kind, e.params.from, e.params.to])).toEqual([
      ["model.scaled-up", 1, 2],
      ["model.scaled-up", 2, 3],
    ]);
    for (const event of ups) {
      expect(event.severity).toBe("info");
      // Each step was backed by at least one waiting request per ready replica.
      expect(Number(event.params.waiting)).toBeGreaterThanOrEqual(Number(event.params.ready));
      expect(Number(event.params.ready)).toBeGreaterThanOrEqual(1);
    }

    await waitFor(async () => ((await live()).length === 1 ? true : undefined), {
      what: `${MODEL} back to 1 replica once the load stopped`,
      timeoutMs: 60_000,
    });
    const all = await scaleEvents();
    const downs = all.slice(2);
    expect(downs.map((e) => [e.kind, e.params.from, e.params.to, e.params.waiting])).toEqual([
      ["model.scaled-down", 3, 2, 0],
      ["model.scaled-down", 2, 1, 0],
    ]);
    // One step at a time: each removal came down_after after the step before it.
    const atMs = all.map((e) => Date.parse(e.at));
    for (let i = 2; i < atMs.length; i += 1)
      expect((atMs[i] ?? 0) - (atMs[i - 1] ?? 0)).toBeGreaterThanOrEqual(DOWN_AFTER_MS - 50);
    // The base is never removed.
    await new Promise((resolve) => setTimeout(resolve, DOWN_AFTER_MS + 1_000));
    expect((await live()).filter((r) => r.phase === "ready")).toHaveLength(1);
    expect((await fleet.api.models.get.query({ name: MODEL })).replicasDesired).toBe(1);
    expect(await scaleEvents()).toHaveLength(4);
  });
});
