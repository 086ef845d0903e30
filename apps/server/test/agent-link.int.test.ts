// The agent link's security, each test written as the attack: join tokens that are expired,
// revoked or used up; a node whose CA pin does not match the server it reaches (a second CA in
// the middle), which must refuse before the token leaves it; node A's certificate registering as
// node B; a removed node coming back; a plain ws:// client; a certificate from another CA; a CSR
// for the id of a node that holds a valid certificate. Then renewal with a short lifetime, and
// the certificate expiry on /metrics.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { AGENT_WS_PATH, decodeEnvelope, encodeEnvelope, type Envelope } from "@llmgw/proto";
import { createCa, createKeyAndCsr, signNodeCsr } from "@llmgw/pki";
import {
  agentPortRequest,
  joinAs,
  nodeTlsOptions,
  spawnLlmgw,
  startAgent,
  tempDir,
  waitFor,
  type NodeIdentity,
} from "@llmgw/testing";
import {
  apiClient,
  serverSetup,
  sessionToken,
  startServer,
  ADMIN_PASSWORD,
  type Api,
  type ServerHandle,
} from "./harness";

let server: ServerHandle;
let api: Api;
/** A second control plane with its own CA and short node certificates (renewal). */
let other: ServerHandle;

beforeAll(async () => {
  server = await startServer(await serverSetup());
  api = apiClient(server.apiUrl, await sessionToken(server.apiUrl, "admin", ADMIN_PASSWORD));
  const otherSetup = await serverSetup();
  other = await startServer({ ...otherSetup, env: { LLMGW_NODE_CERT_TTL_SECONDS: "15" } });
});
afterAll(async () => {
  await server.process.stop();
  await other.process.stop();
});

async function joinWith(token: string, nodeId: string) {
  const { csrPem } = await createKeyAndCsr(nodeId);
  const answer = await agentPortRequest(server, "POST", "/agent/v1/join", {
    body: { token, csr: csrPem, nodeName: nodeId },
  });
  return {
    status: answer.status,
    body: JSON.parse(answer.body) as { code: string; message: string },
  };
}

interface Peer {
  ws: WebSocket;
  frames: Envelope[];
  opened: Promise<{ ok: true } | { ok: false; status: number; body: string }>;
  closed: Promise<{ code: number; reason: string }>;
}

function connect(identity: NodeIdentity | undefined, ca = server.caPem): Peer {
  const ws = new WebSocket(`${server.agentUrl}${AGENT_WS_PATH}`, {
    ...nodeTlsOptions({ caPem: ca }, identity),
  });
  const frames: Envelope[] = [];
  ws.on("message", (data: Buffer) => frames.push(decodeEnvelope(data)));
  ws.on("error", () => undefined);
  const opened = new Promise<{ ok: true } | { ok: false; status: number; body: string }>(
    (resolve) => {
      ws.on("open", () => resolve({ ok: true }));
      ws.on("unexpected-response", (_req, res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ ok: false, status: res.statusCode ?? 0, body }));
      });
      ws.on("error", () => resolve({ ok: false, status: 0, body: "" }));
    },
  );
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return { ws, frames, opened, closed };
}

const register = (nodeId: string) =>
  encodeEnvelope({
    requestId: "r1",
    msg: { case: "register", value: { nodeId, nodeName: nodeId } },
  });

describe("joining with a token", () => {
  it("refuses an expired token, with the same sentence as any other refused token", async () => {
    const { token } = await api.joinTokens.create.mutate({ ttlSeconds: 10 });
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const answer = await joinWith(token, "late-node");
    expect(answer.status).toBe(401);
    expect(answer.body.message).toMatch(/^the join token was refused/);
    expect(answer.body.message).not.toMatch(/expired/);
    await server.process.waitForOutput(/join from .* refused: the token is expired/);
    expect((await api.joinTokens.list.query()).find((t) => token.startsWith(t.id))?.state).toBe(
      "expired",
    );
  });

  it("refuses a revoked token", async () => {
    const { token, view } = await api.joinTokens.create.mutate({});
    await api.joinTokens.revoke.mutate({ id: view.id });
    const answer = await joinWith(token, "revoked-token-node");
    expect(answer.status).toBe(401);
    await server.process.waitForOutput(/refused: the token is revoked/);
  });

  it("refuses a used-up token, and a token that was never made", async () => {
    const { token, view } = await api.joinTokens.create.mutate({ uses: 1 });
    expect((await joinWith(token, "first-node")).status).toBe(200);
    expect((await joinWith(token, "second-node")).status).toBe(401);
    await server.process.waitForOutput(/refused: the token is used-up/);
    const listed = (await api.joinTokens.list.query()).find((t) => t.id === view.id);
    expect(listed).toMatchObject({ uses: 1, usesMax: 1, state: "used-up" });
    expect(JSON.stringify(listed)).not.toContain(token.split(".")[1]);
    expect((await joinWith(`${view.id}.not-the-secret-at-all-000`, "guess-node")).status).toBe(401);
  });

  it("refuses a CSR for the id of a node that holds a valid certificate (409)", async () => {
    await joinAs(server, "taken-node");
    const again = await joinWith(server.joinToken, "taken-node");
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already holds a valid certificate/);
  });

  it("names the field that is wrong", async () => {
    const answer = await agentPortRequest(server, "POST", "/agent/v1/join", {
      body: { token: server.joinToken, csr: "not a csr", nodeName: "x" },
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ field: "csr" });
  });
});

describe("a man in the middle with another CA", () => {
  it("is refused by the joining agent before the token is sent", async () => {
    const { token, view } = await api.joinTokens.create.mutate({ uses: 1 });
    const dataDir = (await tempDir("it-pin")).path;
    // The node was told this server's fingerprint, but its address leads to another CA.
    const join = spawnLlmgw(
      ["agent", "join", other.agentUrl, "--ca-sha256", server.caSha256, "--data-dir", dataDir],
      { name: "agent join (wrong pin)", env: { LLMGW_JOIN_TOKEN: token } },
    );
    const exit = await join.exited;
    expect(exit.code).not.toBe(0);
    expect(join.output()).toMatch(
      /presents a CA with fingerprint .* not the pinned .*refusing to send the token/,
    );
    // The other side saw no join at all, and the token is unspent.
    expect(other.process.output()).not.toMatch(/join from/);
    expect((await api.joinTokens.list.query()).find((t) => t.id === view.id)?.uses).toBe(0);
  });
});

describe("the WebSocket", () => {
  it("refuses node A's certificate registering as node B", async () => {
    const nodeA = await joinAs(server, "node-a");
    await joinAs(server, "node-b");
    const peer = connect(nodeA);
    expect(await peer.opened).toEqual({ ok: true });
    peer.ws.send(register("node-b"));
    const closed = await peer.closed;
    expect(closed).toEqual({
      code: 4401,
      reason: "the certificate belongs to node node-a; it cannot register as node-b",
    });
  });

  it("refuses a removed node when it comes back", async () => {
    const victim = await joinAs(server, "removed-node");
    const peer = connect(victim);
    await peer.opened;
    peer.ws.send(register("removed-node"));
    await waitFor(() => peer.frames.some((f) => f.msg.case === "registerAck"), {
      what: "registerAck",
    });
    // i15: the ack names the control planes' agent-port addresses, so the agent can fail over.
    const ack = peer.frames.find((f) => f.msg.case === "registerAck");
    const agentUrls = ack?.msg.case === "registerAck" ? ack.msg.value.agentUrls : [];
    const port = new URL(server.agentUrl).port;
    expect(agentUrls.length).toBeGreaterThan(0);
    expect(agentUrls.every((url) => url.startsWith("wss://") && url.endsWith(`:${port}`))).toBe(
      true,
    );
    await waitFor(async () => (await api.nodes.list.query()).some((n) => n.id === "removed-node"), {
      what: "the node in the inventory",
    });
    const removed = await api.nodes.remove.mutate({ id: "removed-node" });
    expect(removed.certificatesRevoked).toBe(1);
    expect((await peer.closed).code).toBe(4401);
    const again = await connect(victim).opened;
    expect(again).toMatchObject({ ok: false, status: 401 });
    expect(again.ok ? "" : again.body).toMatch(/was revoked/);
    await waitFor(
      async () =>
        (await api.events.list.query({ kinds: ["node.removed"] })).events.some(
          (e) => e.subjectId === "removed-node",
        ),
      { what: "the node.removed event" },
    );
  });

  it("refuses a client without a certificate and one from another CA at the upgrade", async () => {
    const none = await connect(undefined).opened;
    expect(none).toMatchObject({ ok: false, status: 401 });
    const stranger = await createCa("not the cluster CA", 1);
    const { keyPem, csrPem } = await createKeyAndCsr("stranger");
    const { certPem } = await signNodeCsr(stranger, csrPem, { nodeId: "stranger", validDays: 1 });
    const foreign = await connect({ nodeId: "stranger", cert: certPem, key: keyPem }).opened;
    expect(foreign).toMatchObject({ ok: false, status: 401 });
    expect(foreign.ok ? "" : foreign.body).toMatch(/client certificate was refused/);
    const metrics = await (await fetch(`${server.apiUrl}/metrics`)).text();
    expect(
      Number(/llmgw_agent_connections_refused_total (\d+)/.exec(metrics)?.[1]),
    ).toBeGreaterThan(0);
  });

  it("does not speak plain ws://", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.agentPort}${AGENT_WS_PATH}`);
    const outcome = await new Promise<string>((resolve) => {
      ws.on("open", () => resolve("open"));
      ws.on("error", () => resolve("error"));
      ws.on("unexpected-response", () => resolve("refused"));
    });
    expect(outcome).not.toBe("open");
    ws.terminate();
  });
});

describe("renewal and expiry", () => {
  it("renews a short-lived certificate at 2/3 of its life and reconnects with the new one", async () => {
    const dataDir = (await tempDir("it-renew")).path;
    const agent = await startAgent(other, "renewing", "cpu", dataDir);
    const certPath = join(dataDir, "pki", "node.crt");
    await agent.waitForOutput(/registered|connected/, 60_000);
    const first = await readFile(certPath, "utf8");
    await agent.waitForOutput(/certificate renewed/, 30_000);
    expect(await readFile(certPath, "utf8")).not.toBe(first);
    // Past the first certificate's end, a new connection works only with the renewed one.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    await agent.stop();
    const again = await startAgent(other, "renewing", "cpu", dataDir);
    const otherApi = apiClient(
      other.apiUrl,
      await sessionToken(other.apiUrl, "admin", ADMIN_PASSWORD),
    );
    await waitFor(
      async () =>
        (await otherApi.nodes.list.query()).some(
          (n) => n.name === "renewing" && n.state === "ready",
        ),
      { what: "the renewed node ready again", timeoutMs: 30_000 },
    );
    await again.stop();
  });

  it("shows when the CA, the server's and each node's certificates expire on /metrics", async () => {
    await joinAs(server, "metrics-node");
    const metrics = await (await fetch(`${server.apiUrl}/metrics`)).text();
    const expiry = (labels: string) =>
      Number(
        new RegExp(`llmgw_certificate_expiry_timestamp_seconds\\{${labels}\\} (\\d+)`).exec(
          metrics,
        )?.[1],
      );
    const nowS = Date.now() / 1000;
    expect(expiry('kind="ca",node=""')).toBeGreaterThan(nowS + 365 * 86_400);
    expect(expiry('kind="server",node=""')).toBeGreaterThan(nowS + 30 * 86_400);
    const node = expiry('kind="node",node="metrics-node"');
    expect(node).toBeGreaterThan(nowS + 29 * 86_400);
    expect(node).toBeLessThan(nowS + 31 * 86_400);
  });

  it("reports on /metrics that it holds its store's control-plane lease, alone on it", async () => {
    const metrics = await waitFor(
      async () => {
        const text = await (await fetch(`${server.apiUrl}/metrics`)).text();
        return /^llmgw_leader\{owner_name="[^"]+:\d+"\} 1$/m.test(text) && text;
      },
      { what: "llmgw_leader 1 on /metrics" },
    );
    const expiryS = Number(
      /^llmgw_leader_lease_expiry_timestamp_seconds (\d+)$/m.exec(metrics)?.[1],
    );
    const nowS = Date.now() / 1000;
    // The default lease is 10 s, renewed every third of it.
    expect(expiryS).toBeGreaterThan(nowS - 1);
    expect(expiryS).toBeLessThan(nowS + 11);
  });
});
