// Two control planes on one PostgreSQL: the leader a real `llmgw server` process, the standby
// started in this process and told where the leader's agent port is. The standby's /api answers
// what the leader answers (its live view of the nodes), the leader's control-plane route refuses a
// node's certificate, a client cannot name its own address to the leader, and with the leader
// gone the standby answers 503 with Retry-After instead of an error. A peer cluster added through
// the leader is offered on the standby's /v1 too, and removed there, without a restart.
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  agentPortRequest,
  freePort,
  joinAs,
  startAgent,
  startPostgres,
  tempDir,
  waitFor,
  type PostgresServer,
} from "@llmgw/testing";
import { parseServerConfig } from "../src/config";
import { startServer as startInProcess, type RunningServer } from "../src/main";
import {
  ADMIN_PASSWORD,
  apiClient,
  serverSetup,
  sessionToken,
  startServer,
  type ServerHandle,
} from "./harness";

/** Long enough that a killed leader's lease outlives the test: the standby stays a standby. */
const LEASE_MS = 60_000;
const masterKey = randomBytes(32).toString("base64");
let postgres: PostgresServer;
let leader: ServerHandle;
let standby: RunningServer;
let standbyUrl: string;

beforeAll(async () => {
  postgres = await startPostgres();
  const setup = await serverSetup(postgres.url);
  const shared = {
    ...{ LLMGW_MASTER_KEY: masterKey, LLMGW_LEADER_LEASE_MS: String(LEASE_MS) },
    LLMGW_FEDERATION_CHECK_MS: "500",
  };
  setup.env = { ...shared, LLMGW_SIGNIN_FREE_FAILURES: "2" };
  leader = await startServer(setup);
  // The standby's home holds the leader's CA, as `llmgw server add --from` would make it.
  const home = await tempDir("it-standby");
  mkdirSync(join(home.path, "pki"), { recursive: true, mode: 0o700 });
  for (const file of ["ca.crt", "ca.key"])
    copyFileSync(join(setup.homeDir, "pki", file), join(home.path, "pki", file));
  const env = {
    ...{ ...shared, LLMGW_HOME: home.path, DATABASE_URL: postgres.url },
    ...{ LLMGW_PORT: String(await freePort()), LLMGW_AGENT_PORT: String(await freePort()) },
    LLMGW_AGENT_BIND: "127.0.0.1",
  };
  // The standby finds the leader's agent port in the control-plane directory, as in production.
  standby = await startInProcess(parseServerConfig([], env));
  standbyUrl = `http://127.0.0.1:${standby.httpPort}`;
});

afterAll(async () => {
  await standby?.stop();
  await postgres?.stop();
});

async function leaderGauge(apiUrl: string): Promise<string | undefined> {
  const text = await (await fetch(`${apiUrl}/metrics`)).text();
  return /^llmgw_leader\{[^}]*\} (\d)$/m.exec(text)?.[1];
}

describe("a standby's /api", () => {
  it("answers the console's tRPC calls with the leader's live view", async () => {
    expect([await leaderGauge(leader.apiUrl), await leaderGauge(standbyUrl)]).toEqual(["1", "0"]);
    await startAgent(leader, "it-standby-node", "cpu");
    const token = await sessionToken(standbyUrl, "admin", ADMIN_PASSWORD);
    const throughStandby = apiClient(standbyUrl, token);
    // Only the leader holds the agent's stream: the standby's own view would say "unreachable".
    await waitFor(
      async () => {
        const nodes = await throughStandby.nodes.list.query();
        return nodes.some((n) => n.name === "it-standby-node" && n.state === "ready");
      },
      { what: "the node ready through the standby", timeoutMs: 60_000 },
    );
    const fromLeader = await apiClient(leader.apiUrl, token).nodes.list.query();
    const fromStandby = await throughStandby.nodes.list.query();
    const summary = (nodes: typeof fromLeader) => nodes.map((n) => [n.id, n.name, n.state]);
    expect(summary(fromStandby)).toEqual(summary(fromLeader));
  });

  it("offers a peer added through the leader on the standby's /v1, and drops it once removed", async () => {
    // A stand-in peer cluster (a real HTTP server answering as one would) offering one model.
    const peer = createServer((req, res) => {
      if (req.url === "/ready") return res.writeHead(200).end("ready");
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ object: "list", data: [{ id: "echo", object: "model" }] }));
    });
    await new Promise<void>((resolve) => peer.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
      const api = apiClient(standbyUrl, await sessionToken(standbyUrl, "admin", ADMIN_PASSWORD));
      const { key } = await api.keys.create.mutate({ owner: "team:ml", models: ["*"] });
      const standbyModels = async () => {
        const answer = await fetch(`${standbyUrl}/v1/models`, {
          headers: { authorization: `Bearer ${key}` },
        });
        const body = (await answer.json()) as { data: { id: string }[] };
        return body.data.map((model) => model.id);
      };
      expect(await standbyModels()).not.toContain("probe/echo");
      // Through the standby's /api, which the leader answers: the standby's gateway learns of it
      // from the store.
      await api.federation.add.mutate({ name: "probe", url, key: "probe-key" });
      await waitFor(async () => (await standbyModels()).includes("probe/echo") || undefined, {
        what: "the standby offering the peer's model",
        timeoutMs: 30_000,
      });
      await api.federation.remove.mutate({ name: "probe" });
      await waitFor(async () => !(await standbyModels()).includes("probe/echo") || undefined, {
        what: "the standby no longer offering the removed peer's model",
        timeoutMs: 30_000,
      });
    } finally {
      peer.close();
    }
  });

  it("does not believe a client-address header sent to the API port", async () => {
    // The attack: spread guesses over forged addresses so the per-address wait never starts.
    const guess = (i: number) =>
      fetch(`${leader.apiUrl}/api/trpc/auth.login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-llmgw-client-address": `203.0.113.${i}` },
        body: JSON.stringify({ username: `nobody-${i}`, password: "guess" }),
      });
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++) statuses.push((await guess(i)).status);
    // Two free failures from this one real address, then the address waits.
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(statuses.slice(2)).toEqual([429, 429]);
  });

  it("goes through a leader route that a joined node's certificate cannot use", async () => {
    const intruder = await joinAs(leader, "it-intruder");
    const answer = await agentPortRequest(leader, "GET", "/cp/v1/api/trpc/nodes.list", {
      as: intruder,
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "forbidden" });
  });

  it("answers 503 with Retry-After, never a 500, once the leader is gone", async () => {
    leader.process.kill("SIGKILL");
    await leader.process.exited;
    const answer = await fetch(`${standbyUrl}/api/trpc/nodes.list`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("1");
    const body = (await answer.json()) as { error: { data: { refusal: { code: string } } } };
    expect(body.error.data.refusal.code).toBe("standby.no_leader");
    expect(await leaderGauge(standbyUrl)).toBe("0");
  });
});
