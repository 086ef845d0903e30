// A control plane that stalls must not blame its nodes. The attack: the server's main thread is
// held by one long synchronous task (run through its inspector, as a huge answer or a starved
// machine would hold it) for longer than a node may stay silent before it counts as lost, while
// the agent keeps heartbeating into its socket. When the server runs again its timers come before
// its sockets are read: judged then, the node had been silent for the whole stall, and its replica
// was stopped and rebuilt (at 2,000 nodes, every replica of the fleet at once). The stall must be
// excused: the same replica stays ready and nothing is placed again.
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import { simGpuModel, simWeightsSource, startFleet, type Fleet } from "./harness";

const MODEL = "stall";
// Heartbeats every 300 ms (the harness's), unreachable after 3 missed, lost 1 s after that: a
// node silent for about 2 s is lost. The stall is twice that.
const LOST_AFTER_MS = 1_000;
const STALL_MS = 4_000;
/** Reconcile passes (every 300 ms) that run after the stall before the book is read. */
const SETTLE_MS = 3_000;

/** Holds the server's main thread for `ms` with a busy loop, through its inspector. */
async function stallServer(inspectorUrl: string, ms: number): Promise<void> {
  const socket = new WebSocket(inspectorUrl);
  await once(socket, "open");
  const answered = new Promise<unknown>((resolve) =>
    socket.on("message", (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
      if (message.id === 1) resolve(message.result);
    }),
  );
  const expression = `{ const until = Date.now() + ${ms}; while (Date.now() < until); }`;
  socket.send(JSON.stringify({ id: 1, method: "Runtime.evaluate", params: { expression } }));
  await answered;
  socket.close();
}

describe("a server that stalls", () => {
  let fleet: Fleet;
  let inspectorUrl = "";

  beforeAll(async () => {
    const source = await simWeightsSource("it-stall-weights");
    fleet = await startFleet({
      env: {
        LLMGW_LOST_AFTER_MS: String(LOST_AFTER_MS),
        LLMGW_RESYNC_INTERVAL_MS: "300",
        NODE_OPTIONS: "--inspect=127.0.0.1:0",
      },
      agents: [{ name: "it-stall-a", profile: "h100x8" }],
    });
    const [, url] = await fleet.server.process.waitForOutput(
      /Debugger listening on (ws:\/\/\S+)/,
      10_000,
    );
    inspectorUrl = url ?? "";
    await fleet.api.models.add.mutate({ definition: simGpuModel(MODEL, source, { min: 1 }) });
    await fleet.readyReplicas(MODEL, 1);
  });

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  it("keeps its nodes' replicas through a stall longer than the lost threshold", async () => {
    const [before] = await fleet.api.replicas.list.query({ model: MODEL });
    expect(before?.phase).toBe("ready");
    const startedMs = Date.now();
    await stallServer(inspectorUrl, STALL_MS);
    // The evaluation answers once the busy loop is over: the server really stood still that long.
    expect(Date.now() - startedMs).toBeGreaterThanOrEqual(STALL_MS);
    await sleep(SETTLE_MS);
    await waitFor(async () => (await fetch(`${fleet.server.apiUrl}/healthz`)).ok, {
      what: "the server answering again",
    });
    const after = await fleet.api.replicas.list.query({ model: MODEL });
    expect(after.map((r) => ({ id: r.id, phase: r.phase }))).toEqual([
      { id: before?.id, phase: "ready" },
    ]);
    expect(fleet.server.process.output()).not.toMatch(/is lost \(unreachable/);
    const [node] = (await fleet.api.nodes.list.query()).filter((n) => n.name === "it-stall-a");
    expect(node?.state).toBe("ready");
  });
});
