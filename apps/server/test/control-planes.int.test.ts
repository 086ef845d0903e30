// Two control planes on one PostgreSQL: only the lease holder places (one replica, not two), the
// standby serves /v1 from the replicas the leader placed and refuses agents, both list each other,
// and when the leader stops the standby takes over, the agent follows it, and nothing is placed
// again (the running replica is adopted).
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyAndCsr } from "@llmgw/pki";
import {
  ADMIN_PASSWORD,
  agentPortRequest,
  joinAs,
  nodeTlsOptions,
  serverSetup,
  startPostgres,
  startServer,
  waitFor,
  type PostgresServer,
  type ServerHandle,
  type ServerSetup,
} from "@llmgw/testing";
import WebSocket from "ws";
import {
  apiClient,
  sessionToken,
  simGpuModel,
  simWeightsSource,
  startFleet,
  type Api,
  type Fleet,
} from "./harness";

const LEASE_MS = 3_000;
const TIMINGS = {
  LLMGW_LEADER_LEASE_MS: String(LEASE_MS),
  LLMGW_STANDBY_REFRESH_MS: "500",
  LLMGW_RESYNC_INTERVAL_MS: "300",
};

/** A second control plane's home: the first's master key and cluster CA, its own certificate. */
function secondHome(first: ServerSetup, second: ServerSetup): void {
  mkdirSync(join(second.homeDir, "pki"), { recursive: true });
  copyFileSync(join(first.homeDir, "master.key"), join(second.homeDir, "master.key"));
  for (const file of ["ca.crt", "ca.key"])
    copyFileSync(join(first.homeDir, "pki", file), join(second.homeDir, "pki", file));
}

describe("two control planes on one store", () => {
  let fleet: Fleet;
  let standby: ServerHandle;
  let standbyApi: Api;
  let key: string;
  let postgres: PostgresServer | undefined;

  beforeAll(async () => {
    postgres = await startPostgres();
    fleet = await startFleet({ databaseUrl: postgres.url, env: TIMINGS });
    const setup = { ...(await serverSetup(postgres.url)), env: TIMINGS };
    secondHome(fleet.setup, setup);
    standby = await startServer(setup);
    standbyApi = apiClient(
      standby.apiUrl,
      await sessionToken(standby.apiUrl, "admin", ADMIN_PASSWORD),
    );
    await fleet.startAgent("cp-gpu", "h100x8");
    const source = await simWeightsSource("it-cp-weights");
    await fleet.api.models.add.mutate({ definition: simGpuModel("qwen-ha", source) });
    await fleet.readyReplicas("qwen-ha", 1);
    key = (await fleet.api.keys.create.mutate({ owner: "team:ha", models: ["*"] })).key;
  });

  afterAll(async () => {
    await fleet?.stop(Boolean(process.env.IT_DUMP));
    await standby?.process.stop();
    await postgres?.stop();
  });

  it("lists both, one leading, and the standby's /v1 serves the leader's replica", async () => {
    const planes = await waitFor(
      async () => {
        const rows = await fleet.api.controlPlanes.list.query();
        return rows.length === 2 && rows.every((row) => row.isLive) ? rows : undefined;
      },
      { what: "both control planes listed", timeoutMs: 10_000 },
    );
    expect(planes.filter((row) => row.isLeader)).toHaveLength(1);
    expect(planes.find((row) => row.isThis)?.isLeader).toBe(true);
    const client = new OpenAI({ apiKey: key, baseURL: `${standby.apiUrl}/v1`, maxRetries: 0 });
    const answer = await waitFor(
      () =>
        client.chat.completions
          .create({ model: "qwen-ha", messages: [{ role: "user", content: "hi" }] })
          .catch(() => undefined),
      { what: "a completion through the standby", timeoutMs: 10_000 },
    );
    expect(answer.choices[0]?.message.content).toBeTruthy();
    // The standby placed nothing of its own: still exactly one replica.
    const replicas = await fleet.api.replicas.list.query({ model: "qwen-ha" });
    expect(replicas.filter((r) => r.phase !== "stopped")).toHaveLength(1);
  });

  it("tells a joining node every control plane's agent address", async () => {
    const { csrPem } = await createKeyAndCsr("cp-joiner");
    const answer = await agentPortRequest(fleet.server, "POST", "/agent/v1/join", {
      body: { token: fleet.server.joinToken, csr: csrPem, nodeName: "cp-joiner" },
    });
    expect(answer.status).toBe(200);
    const { agentUrls } = JSON.parse(answer.body) as { agentUrls: string[] };
    const ports = agentUrls.map((url) => new URL(url).port);
    expect(ports).toContain(String(fleet.server.agentPort));
    expect(ports).toContain(String(standby.agentPort));
  });

  it("refuses an agent's WebSocket on the standby, naming the leader", async () => {
    // A node of this cluster, with a valid certificate: refused for where it knocked, not who.
    const node = await joinAs(standby, "cp-stray-node");
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = new WebSocket(`${standby.agentUrl}/agent/v1`, nodeTlsOptions(standby, node));
      socket.on("unexpected-response", (_req, res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      socket.on("open", () => reject(new Error("the standby took an agent")));
      socket.on("error", () => undefined);
    });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatch(/stands by; agents connect to the leader at wss:\/\//);
  });

  it("hands over when the leader stops: the agent follows, and the replica is adopted, not placed again", async () => {
    const before = (await fleet.api.replicas.list.query({ model: "qwen-ha" })).find(
      (r) => r.phase === "ready",
    );
    const stoppedAt = Date.now();
    await fleet.server.process.stop();
    await waitFor(
      async () => (await standbyApi.controlPlanes.list.query()).find((r) => r.isThis)?.isLeader,
      { what: "the standby leading", timeoutMs: LEASE_MS * 3 },
    );
    const node = await waitFor(
      async () =>
        (await standbyApi.nodes.list.query()).find(
          (n) => n.name === "cp-gpu" && n.state === "ready",
        ),
      { what: "the agent on the new leader", timeoutMs: 15_000 },
    );
    expect(node).toBeTruthy();
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    // Several resyncs later: the same replica, ready, and no second one.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = (await standbyApi.replicas.list.query({ model: "qwen-ha" })).filter(
      (r) => r.phase !== "stopped",
    );
    expect(after.map((r) => r.id)).toEqual([before?.id]);
    expect(after[0]?.phase).toBe("ready");
  });
});
