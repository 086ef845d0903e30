// Fleet events and usage charts end to end, on both store backends: a real server, two real agents
// with simulated cards, a real sim-engine replica and the official `openai` client. The events the
// server records (catalog, placement, start, keys, a node going quiet, lost and back, the rebuild)
// are read back through tRPC, and the usage series answers with buckets and latency percentiles.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventKind } from "@llmgw/api";
import { waitFor } from "@llmgw/testing";
import { must } from "@llmgw/domain";
import {
  simGpuModel,
  simWeightsSource,
  startFleet,
  storeBackends,
  type Api,
  type Fleet,
} from "./harness";

const backends = storeBackends();

async function eventOf(api: Api, kind: EventKind, subjectId?: string) {
  return waitFor(
    async () =>
      (await api.events.list.query({ kinds: [kind], ...(subjectId ? { subjectId } : {}) }))
        .events[0],
    { what: `a ${kind} event${subjectId ? ` for ${subjectId}` : ""}`, timeoutMs: 30_000 },
  );
}

describe.each(backends)("events and usage on $name", ({ databaseUrl }) => {
  let fleet: Fleet;
  let api: Api;
  let replicaId: string;

  beforeAll(async () => {
    fleet = await startFleet({
      databaseUrl: await databaseUrl(),
      env: {
        LLMGW_RESYNC_INTERVAL_MS: "300",
        LLMGW_LOST_AFTER_MS: "1500",
        LLMGW_RESTART_GRACE_MS: "0",
      },
      agents: [{ name: "it-ev-a", profile: "h100x8" }],
    });
    ({ api } = fleet);
    await api.models.add.mutate({
      definition: simGpuModel("ev-sim", await simWeightsSource("it-ev-weights")),
    });
    const ready = await waitFor(
      async () =>
        (await api.replicas.list.query({ model: "ev-sim" })).find((r) => r.phase === "ready"),
      { what: "a ready ev-sim replica", timeoutMs: 60_000 },
    );
    replicaId = ready.id;
  });

  afterAll(async () => fleet?.stop());

  it("records the catalog change, the placement and the start, with structured params", async () => {
    const added = await eventOf(api, "catalog.model-added", "ev-sim");
    expect(added).toMatchObject({ severity: "info", subjectType: "model", isAcknowledged: true });
    expect(added.params).toMatchObject({ model: "ev-sim", actor: "admin" });
    const placed = await eventOf(api, "replica.placed", replicaId);
    expect(placed.params).toMatchObject({ model: "ev-sim", node: "it-ev-a" });
    const started = await eventOf(api, "replica.started", replicaId);
    expect(started.params.endpoint).toMatch(/:\d+$/);
    // Newest first: the start came after the placement.
    expect(started.id).toBeGreaterThan(placed.id);
  });

  it("answers chat through /v1, then charts it in buckets with p50/p95 per model and owner", async () => {
    const created = await api.keys.create.mutate({ owner: "team:charts", models: ["ev-*"] });
    const keyEvent = await eventOf(api, "key.created", created.view.id);
    expect(keyEvent.params).toMatchObject({ owner: "team:charts", prefix: created.view.prefix });
    expect(JSON.stringify(keyEvent.params)).not.toContain(created.key);

    const client = new OpenAI({
      apiKey: created.key,
      baseURL: fleet.v1,
      maxRetries: 0,
    });
    for (let i = 0; i < 4; i++) {
      const answer = await client.chat.completions.create({
        model: "ev-sim",
        messages: [{ role: "user", content: `hello ${i}` }],
      });
      expect(answer.choices[0]?.message.content).toBeTruthy();
    }
    const byModel = await waitFor(
      async () => {
        const series = await api.usage.series.query({ range: "1h", groupBy: "model" });
        const total = series.totals.find((t) => t.group === "ev-sim");
        return total && total.requests >= 4 ? series : undefined;
      },
      { what: "4 ev-sim requests in the usage series", timeoutMs: 15_000 },
    );
    expect(byModel.bucketSeconds).toBe(60);
    const total = byModel.totals.find((t) => t.group === "ev-sim");
    expect(total?.errors).toBe(0);
    expect(total?.completionTokens).toBeGreaterThan(0);
    expect(total?.latencyMsP50).not.toBeNull();
    expect(total?.latencyMsP95 ?? -1).toBeGreaterThanOrEqual(total?.latencyMsP50 ?? 0);
    const points = byModel.points.filter((p) => p.group === "ev-sim");
    expect(points.reduce((sum, p) => sum + p.requests, 0)).toBe(total?.requests);
    for (const p of points) expect(new Date(p.bucket).getTime() % 60_000).toBe(0);

    const byOwner = await api.usage.series.query({ range: "7d", groupBy: "owner" });
    expect(byOwner.bucketSeconds).toBe(3 * 3_600);
    expect(byOwner.totals.find((t) => t.group === "team:charts")?.requests).toBe(4);
    const nobody = await api.usage.series.query({ range: "24h", owner: "team:nobody" });
    expect(nobody).toMatchObject({ points: [], totals: [] });

    await api.keys.revoke.mutate({ id: created.view.id });
    expect((await eventOf(api, "key.revoked", created.view.id)).params.actor).toBe("admin");
  });

  it("records a quiet node, its loss and the rebuild elsewhere, needing attention until acknowledged", async () => {
    await fleet.startAgent("it-ev-b", "h100x8");
    await waitFor(
      async () =>
        (await api.nodes.list.query()).find((n) => n.name === "it-ev-b" && n.state === "ready"),
      { what: "it-ev-b ready", timeoutMs: 30_000 },
    );
    const nodeA = (await api.nodes.list.query()).find((n) => n.name === "it-ev-a");
    fleet.agent("it-ev-a").process.kill("SIGSTOP");
    try {
      const quiet = await eventOf(api, "node.unreachable", nodeA?.id);
      expect(quiet).toMatchObject({ severity: "warning", isAcknowledged: false });
      const lost = await eventOf(api, "node.lost", nodeA?.id);
      expect(lost.severity).toBe("error");
      const rebuilt = await eventOf(api, "replica.rebuilt");
      expect(rebuilt.params).toMatchObject({
        model: "ev-sim",
        node: "it-ev-b",
        previous: replicaId,
        lostNode: "it-ev-a",
      });
      // One lost event per node, however many passes noticed it.
      const lostEvents = await api.events.list.query({ kinds: ["node.lost"] });
      expect(lostEvents.events).toHaveLength(1);
    } finally {
      fleet.agent("it-ev-a").process.kill("SIGCONT");
    }
    await eventOf(api, "node.back", nodeA?.id);

    const attention = await api.events.attention.query();
    expect(attention.count).toBeGreaterThanOrEqual(3);
    const errors = await api.events.list.query({ severities: ["error", "warning"] });
    expect(errors.events.every((e) => e.severity !== "info")).toBe(true);
    const { acknowledged } = await api.events.acknowledge.mutate({
      upToId: attention.newestId ?? 0,
    });
    expect(acknowledged).toBe(attention.count);
    expect((await api.events.attention.query()).count).toBe(0);
  });

  it("pages newest first with a cursor and refuses a bad filter by name", async () => {
    const first = await api.events.list.query({ limit: 2 });
    expect(first.events).toHaveLength(2);
    const [newest, older] = first.events;
    expect(newest?.id).toBeGreaterThan(must(older, "a second event").id);
    expect(first.nextCursor).toBe(older?.id);
    const second = await api.events.list.query({ limit: 2, cursor: first.nextCursor ?? 0 });
    expect(must(second.events[0], "an event on the second page").id).toBeLessThan(
      must(older, "a second event").id,
    );
    const all = await api.events.list.query({ limit: 500 });
    expect(all.nextCursor).toBeNull();
    const forModel = await api.events.list.query({ subjectType: "model", subjectId: "ev-sim" });
    expect(forModel.events.map((e) => e.kind)).toContain("catalog.model-added");
    await expect(api.events.list.query({ limit: 0 })).rejects.toThrow(/limit must be at least 1/);
  });
});
