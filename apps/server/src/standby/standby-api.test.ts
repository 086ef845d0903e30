// The standby's /api and the leader's control-plane route together, over real mutual TLS with
// certificates from one cluster CA: what passes, what streams, and who is refused.
import { createServer, request as httpRequest, type Server } from "node:http";
import { createServer as createTlsServer, request, type Server as TlsServer } from "node:https";
import {
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
} from "node:net";
import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCa, createKeyAndCsr, issueServerCertificate, signNodeCsr } from "@llmgw/pki";
import { handleAgentRequest } from "../agents/agent-http";
import { clientAddressOf } from "../http/client-address";
import { identifyControlPlane } from "../pki/cluster-pki";
import { controlPlaneApiRoute, type RequestHandler } from "./control-plane-api";
import { createLeaderProxy, leaderTarget } from "./leader-proxy";

let leading = true;
const seen: { url: string; address: string; cookie: string | undefined; connection?: string }[] =
  [];
/** The leader's API port handler: echoes what it was handed, or streams two events. */
const api: RequestHandler = (req, res) => {
  seen.push({ url: req.url ?? "", address: clientAddressOf(req), cookie: req.headers.cookie });
  if (req.url?.startsWith("/api/stream")) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: one\n\n");
    setTimeout(() => res.end("data: two\n\n"), 300);
    return;
  }
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "set-cookie": "s=1; HttpOnly" });
    res.end(JSON.stringify({ url: req.url, body, keepAlive: req.headers["keep-alive"] ?? null }));
  });
};

let ca: { certPem: string; keyPem: string };
let leaderPort: TlsServer;
let standbyPort: Server;
let standbyUrl: string;
let peerUrl: string | null;
let node: { cert: string; key: string };
let standbyTls: { key: string; cert: string; ca: string };

const listen = async <S extends Server | TlsServer | NetServer>(server: S) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  ca = await createCa("test cluster CA", 1);
  const names = { names: ["localhost"], addresses: ["127.0.0.1"], validDays: 1 };
  const leaderCert = await issueServerCertificate(ca, names);
  const standbyCert = await issueServerCertificate(ca, names);
  standbyTls = { key: standbyCert.keyPem, cert: standbyCert.certPem, ca: ca.certPem };
  const csr = await createKeyAndCsr("node-1");
  node = {
    cert: (await signNodeCsr(ca, csr.csrPem, { nodeId: "node-1", validDays: 1 })).certPem,
    key: csr.keyPem,
  };
  const route = controlPlaneApiRoute({ isLeader: () => leading, api: () => api });
  leaderPort = createTlsServer(
    {
      key: leaderCert.keyPem,
      cert: leaderCert.certPem,
      ca: ca.certPem,
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) =>
      handleAgentRequest(
        {
          routes: [route],
          identify: () => ({ ok: false, reason: "no nodes here" }),
          identifyControlPlane: (socket: TLSSocket) => identifyControlPlane(socket, Date.now()),
          admit: () => undefined,
          overCap: () => null,
          log: () => undefined,
        },
        req,
        res,
      ),
  );
  peerUrl = `https://127.0.0.1:${await listen(leaderPort)}`;
  const proxy = createLeaderProxy({
    isLeader: () => false,
    leaderPeerUrl: () => peerUrl,
    tls: standbyTls,
    connectTimeoutMs: 500,
    log: () => undefined,
  });
  standbyPort = createServer((req, res) => {
    if (!proxy.forward(req, res)) res.writeHead(418).end();
  });
  standbyUrl = `http://127.0.0.1:${await listen(standbyPort)}`;
});

afterAll(() => {
  leaderPort.closeAllConnections();
  leaderPort.close();
  standbyPort.closeAllConnections();
  standbyPort.close();
});

/** A request straight to the leader's agent port, as whoever holds `identity`. */
function toLeader(path: string, identity?: { cert: string; key: string }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      `${peerUrl}${path}`,
      { method: "GET", ca: ca.certPem, ...identity },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("a standby's /api through the leader's control-plane route", () => {
  it("passes the request, its body and its cookie, and answers what the leader answered", async () => {
    const answer = await fetch(`${standbyUrl}/api/trpc/nodes.list?batch=1&input=%7B%7D`, {
      method: "POST",
      headers: { cookie: "llmgw_session=abc", "content-type": "application/json" },
      body: JSON.stringify({ hello: "leader" }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("set-cookie")).toBe("s=1; HttpOnly");
    const body = (await answer.json()) as { url: string; body: string };
    expect(body).toMatchObject({
      url: "/api/trpc/nodes.list?batch=1&input=%7B%7D",
      body: '{"hello":"leader"}',
    });
    expect(seen.at(-1)?.cookie).toBe("llmgw_session=abc");
  });

  it("streams an event stream instead of holding it until the end", async () => {
    const answer = await fetch(`${standbyUrl}/api/stream`);
    const reader = answer.body?.getReader();
    const first = await reader?.read();
    const sentAtMs = Date.now();
    expect(Buffer.from(first?.value ?? []).toString()).toBe("data: one\n\n");
    const second = await reader?.read();
    expect(Buffer.from(second?.value ?? []).toString()).toBe("data: two\n\n");
    expect(Date.now() - sentAtMs).toBeGreaterThan(150);
  });

  it("vouches for the client's own address, whatever address the client claims", async () => {
    await fetch(`${standbyUrl}/api/trpc/auth.me`, {
      headers: { "x-llmgw-client-address": "203.0.113.9" },
    });
    expect(seen.at(-1)?.address).toBe("127.0.0.1");
  });

  it("refuses a path that climbs out of /api to the agent port's other routes", async () => {
    // Sent raw: fetch would resolve the dots before they reach the standby.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${standbyUrl}/api/%2e%2e/%2e%2e/agent/v1/renew`, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(400);
    expect(leaderTarget("/api/../agent/v1/renew", "https://cp:1")).toBeNull();
    expect(leaderTarget("/api/trpc/a.b?x=1", "https://cp:1")?.href).toBe(
      "https://cp:1/cp/v1/api/trpc/a.b?x=1",
    );
  });

  it("answers 503 with Retry-After when the leader no longer leads, and when none is known", async () => {
    leading = false;
    const lost = await fetch(`${standbyUrl}/api/trpc/nodes.list`);
    leading = true;
    expect(lost.status).toBe(503);
    expect(lost.headers.get("retry-after")).toBe("1");
    const body = (await lost.json()) as { error: { data: { refusal: { code: string } } } };
    expect(body.error.data.refusal.code).toBe("standby.no_leader");
    const saved = peerUrl;
    peerUrl = null;
    const none = await fetch(`${standbyUrl}/api/trpc/nodes.list`);
    peerUrl = saved;
    expect([none.status, none.headers.get("retry-after")]).toEqual([503, "1"]);
  });

  it("answers 503, not 500, when the leader's port does not answer", async () => {
    const saved = peerUrl;
    peerUrl = "https://127.0.0.1:1";
    const answer = await fetch(`${standbyUrl}/api/trpc/nodes.list`);
    peerUrl = saved;
    expect(answer.status).toBe(503);
    expect(await answer.text()).not.toMatch(/ECONNREFUSED/);
  });

  it("answers 503 when the leader's port takes the connection and never answers", async () => {
    const blackHole = createNetServer(() => undefined);
    const saved = peerUrl;
    peerUrl = `https://127.0.0.1:${await listen(blackHole)}`;
    const startedMs = Date.now();
    const answer = await fetch(`${standbyUrl}/api/trpc/nodes.list`);
    peerUrl = saved;
    blackHole.close();
    expect(answer.status).toBe(503);
    expect(Date.now() - startedMs).toBeLessThan(5_000);
  });
});

describe("the leader's /cp/v1/api route", () => {
  it("refuses a joined node's certificate (403)", async () => {
    const before = seen.length;
    const answer = await toLeader("/cp/v1/api/trpc/nodes.list", node);
    expect(answer.status).toBe(403);
    expect(seen.length).toBe(before);
  });

  it("refuses a caller without a certificate (401)", async () => {
    expect((await toLeader("/cp/v1/api/trpc/nodes.list")).status).toBe(401);
  });

  it("refuses a control plane's certificate from another CA (401)", async () => {
    const strangerCa = await createCa("another cluster", 1);
    const stranger = await issueServerCertificate(strangerCa, {
      names: ["localhost"],
      addresses: [],
      validDays: 1,
    });
    const answer = await toLeader("/cp/v1/api/trpc/nodes.list", {
      cert: stranger.certPem,
      key: stranger.keyPem,
    });
    expect(answer.status).toBe(401);
  });

  it("trusts the client-address header only from a control plane", async () => {
    const req = request(`${peerUrl}/cp/v1/api/trpc/auth.me`, {
      ca: ca.certPem,
      key: standbyTls.key,
      cert: standbyTls.cert,
      headers: { "x-llmgw-client-address": "198.51.100.7" },
    });
    await new Promise<void>((resolve, reject) => {
      req.on("response", (res) => res.resume().on("end", resolve));
      req.on("error", reject);
      req.end();
    });
    expect(seen.at(-1)).toMatchObject({ url: "/api/trpc/auth.me", address: "198.51.100.7" });
  });
});
