// The walking skeleton end to end, on both store backends: a real agent process registers over a
// real WebSocket, the server stores it and serves it through tRPC, and notices when it dies.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, tempDir, waitFor, type PostgresServer } from "@llmgw/testing";
import {
  apiClient,
  serverSetup,
  signIn,
  startAgent,
  startServer,
  type ServerSetup,
} from "./harness";

const backends = [
  { name: "PGlite", databaseUrl: async () => undefined },
  { name: "PostgreSQL 15", databaseUrl: async () => (postgres = await startPostgres()).url },
];
let postgres: PostgresServer | undefined;
afterAll(async () => postgres?.stop());

describe.each(backends)("fleet on $name", ({ databaseUrl }) => {
  let setup: ServerSetup;
  beforeAll(async () => {
    setup = await serverSetup(await databaseUrl());
  });

  it("registers an agent, marks it unreachable when killed, and keeps it across a restart", async () => {
    let server = await startServer(setup);
    const agentDir = (await tempDir("it-agent")).path;
    const agent = await startAgent(server, "it-h100", "h100x8", agentDir);
    let api = await signIn(server.apiUrl);

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
    expect(history.samples.at(-1)!.gpus[0]!.utilizationPercent).toBeLessThan(5);
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

    await server.process.stop();
    server = await startServer(setup);
    api = await signIn(server.apiUrl);
    const remembered = await api.nodes.get.query({ id: ready.id });
    expect(remembered.state).toBe("unreachable");
    expect(remembered.gpus).toHaveLength(8);
    expect(remembered.gpus[0]?.utilizationPercent).toBeNull();

    const again = await startAgent(server, "it-h100", "h100x8", agentDir);
    await waitFor(async () => (await api.nodes.get.query({ id: ready.id })).state === "ready", {
      what: "it-h100 ready again with the same id",
      timeoutMs: 30_000,
    });
    expect((await api.nodes.list.query()).filter((n) => n.name === "it-h100")).toHaveLength(1);
    await again.stop();
    await server.process.stop();
  });

  it("refuses the API without a valid session", async () => {
    const server = await startServer(setup);
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
    await server.process.stop();
  });
});
