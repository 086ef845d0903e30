// The walking skeleton end to end, on both store backends: a real agent process registers over a
// real WebSocket, the server stores it and serves it through tRPC, and notices when it dies.
import { beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import { apiClient, serverSetup, startFleet, storeBackends, type ServerSetup } from "./harness";

const backends = storeBackends();

describe.each(backends)("fleet on $name", ({ databaseUrl }) => {
  // Both tests run on one home: its master key opens what the first sealed in PostgreSQL.
  let setup: ServerSetup;
  beforeAll(async () => {
    setup = await serverSetup(await databaseUrl());
  });

  it("registers an agent, marks it unreachable when killed, and keeps it across a restart", async () => {
    const fleet = await startFleet({ setup });
    const agent = await fleet.startAgent("it-h100", "h100x8");
    let { api } = fleet;

    const ready = await waitFor(
      async () =>
        (await api.nodes.list.query()).find(
          (n) =>
            n.name === "it-h100" && n.state === "ready" && n.gpus[0]?.utilizationPercent !== null,
        ),
      { what: "it-h100 ready with GPU samples", timeoutMs: 30_000 },
    );
    expect(ready.simulated).toBe(true);
    expect(ready.simulationProfile).toBe("h100x8");
    expect(ready.gpus).toHaveLength(8);
    expect(ready.gpus[0]?.name).toContain("H100");
    expect(ready.gpus[0]?.memoryBytesTotal).toBeGreaterThan(80 * 1e9);
    expect((await api.nodes.get.query({ id: ready.id })).name).toBe("it-h100");
    // The server keeps recent card samples per node for the console's charts.
    const history = await waitFor(
      async () => {
        const found = await api.nodes.history.query({ id: "it-h100" });
        return found.samples.length >= 3 ? found : undefined;
      },
      { what: "three heartbeats of it-h100 in nodes.history", timeoutMs: 15_000 },
    );
    expect(history.nodeId).toBe(ready.id);
    expect(history.samples.every((sample) => sample.gpus.length === 8)).toBe(true);
    const times = history.samples.map((sample) => sample.atMs);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // An idle simulated card reads under 5 %; no replica runs here, so none is idle either.
    expect(history.samples.at(-1)?.gpus[0]?.utilizationPercent).toBeLessThan(5);
    expect((await api.replicas.idle.query()).replicas).toEqual([]);
    await expect(api.nodes.history.query({ id: "no-such-node" })).rejects.toThrow(/not known/);

    // A node that stops sending while its socket stays open goes unreachable after 3 missed
    // heartbeats (300 ms each here), and comes back when it speaks again.
    agent.kill("SIGSTOP");
    await waitFor(
      async () => (await api.nodes.get.query({ id: ready.id })).state === "unreachable",
      {
        what: "it-h100 unreachable while its agent is stopped",
        timeoutMs: 10_000,
      },
    );
    agent.kill("SIGCONT");
    await waitFor(async () => (await api.nodes.get.query({ id: ready.id })).state === "ready", {
      what: "it-h100 ready again after SIGCONT",
      timeoutMs: 10_000,
    });

    agent.kill("SIGKILL");
    await waitFor(
      async () => (await api.nodes.get.query({ id: ready.id })).state === "unreachable",
      {
        what: "it-h100 unreachable after kill -9",
        timeoutMs: 15_000,
      },
    );

    await fleet.restart();
    ({ api } = fleet);
    const remembered = await api.nodes.get.query({ id: ready.id });
    expect(remembered.state).toBe("unreachable");
    expect(remembered.gpus).toHaveLength(8);
    expect(remembered.gpus[0]?.utilizationPercent).toBeNull();

    await fleet.startAgent("it-h100", "h100x8");
    await waitFor(async () => (await api.nodes.get.query({ id: ready.id })).state === "ready", {
      what: "it-h100 ready again with the same id",
      timeoutMs: 30_000,
    });
    expect((await api.nodes.list.query()).filter((n) => n.name === "it-h100")).toHaveLength(1);

    // Stopping the server with the agent still connected: the closed session's last-seen time is
    // written before the store closes (it once failed against the closed store, a line per node).
    const stopped = await fleet.server.process.stop();
    expect(stopped.code).toBe(0);
    expect(fleet.server.process.output()).toContain("stopping");
    expect(fleet.server.process.output()).not.toMatch(/could not save/);
    await fleet.stop();
  });

  it("refuses the API without a valid session", async () => {
    const { server, stop } = await startFleet({ setup });
    await expect(apiClient(server.apiUrl, null).nodes.list.query()).rejects.toThrow(/sign in/);
    await expect(apiClient(server.apiUrl, "not-a-token").nodes.list.query()).rejects.toThrow(
      /sign in/,
    );
    await expect(
      apiClient(server.apiUrl, null).auth.login.mutate({
        username: "admin",
        password: "wrong-password",
      }),
    ).rejects.toThrow(/wrong username or password/);
    await stop();
  });
});
