import { once } from "node:events";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import {
  createCa,
  createKeyAndCsr,
  issueServerCertificate,
  signNodeCsr,
  type KeyAndCertificate,
} from "@llmgw/pki";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { TlsSessionCache } from "./tls-sessions";

interface Seen {
  isResumed: boolean;
  isAuthorized: boolean;
  commonName: unknown;
}

let ca: KeyAndCertificate;
let server: Server;
let url: string;
const seen: Seen[] = [];

async function nodeIdentity(nodeId: string) {
  const { keyPem, csrPem } = await createKeyAndCsr(nodeId);
  const { certPem } = await signNodeCsr(ca, csrPem, { nodeId, validDays: 1 });
  return { ca: ca.certPem, cert: certPem, key: keyPem };
}

beforeAll(async () => {
  ca = await createCa("test CA", 1);
  const own = await issueServerCertificate(ca, {
    names: ["localhost"],
    addresses: ["127.0.0.1"],
    validDays: 1,
  });
  // As the agent port: the client certificate asked for, checked by the route (here: recorded).
  server = createServer({
    key: own.keyPem,
    cert: own.certPem,
    ca: ca.certPem,
    requestCert: true,
    rejectUnauthorized: false,
  });
  const wss = new WebSocketServer({ server });
  wss.on("connection", (ws, req) => {
    const socket = req.socket as TLSSocket;
    seen.push({
      isResumed: socket.isSessionReused(),
      isAuthorized: socket.authorized,
      commonName: socket.getPeerCertificate().subject.CN,
    });
    ws.close();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `wss://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
});

async function dial(cache: TlsSessionCache, tls: { ca: string; cert: string; key: string }) {
  const ws = new WebSocket(url, { ...tls, createConnection: cache.connector(url, tls.cert) });
  ws.on("error", () => undefined);
  await once(ws, "close");
  return seen.at(-1);
}

describe("TLS session resumption on the agent's connections", () => {
  it("resumes the session on the next connection, with the node's certificate still checked", async () => {
    const cache = new TlsSessionCache();
    const tls = await nodeIdentity("node-a");
    expect(await dial(cache, tls)).toEqual({
      isResumed: false,
      isAuthorized: true,
      commonName: "node-a",
    });
    expect(cache.size).toBe(1);
    // The server still sees who the node is and that its certificate chains to the CA.
    expect(await dial(cache, tls)).toEqual({
      isResumed: true,
      isAuthorized: true,
      commonName: "node-a",
    });
  });

  it("does a full handshake with a renewed certificate, so the server sees the new one", async () => {
    const cache = new TlsSessionCache();
    await dial(cache, await nodeIdentity("node-b"));
    const renewed = await nodeIdentity("node-b2");
    expect(await dial(cache, renewed)).toMatchObject({ isResumed: false, commonName: "node-b2" });
  });

  it("forgets an address's sessions when told to (the server refused the node)", async () => {
    const cache = new TlsSessionCache();
    const tls = await nodeIdentity("node-c");
    await dial(cache, tls);
    cache.forget(url);
    expect(cache.size).toBe(0);
    expect(await dial(cache, tls)).toMatchObject({ isResumed: false });
  });

  it("builds the node's secure context once and again only for a renewed certificate", async () => {
    const cache = new TlsSessionCache();
    const tls = await nodeIdentity("node-d");
    const first = cache.secureContextFor(tls);
    expect(cache.secureContextFor({ ...tls })).toBe(first);
    // Dials with the kept context still authenticate the node.
    expect(await dial(cache, tls)).toMatchObject({ isAuthorized: true, commonName: "node-d" });
    const renewed = await nodeIdentity("node-d");
    expect(cache.secureContextFor(renewed)).not.toBe(first);
    expect(await dial(cache, renewed)).toMatchObject({ isAuthorized: true, commonName: "node-d" });
  });
});
