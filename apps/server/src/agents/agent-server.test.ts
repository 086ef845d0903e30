// The agent port's TCP front over real sockets: connections past the handshake limit wait their
// turn and all get in, and a node's reconnect resumes its TLS session through the gate.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { createConnection } from "node:net";
import { connect, type ConnectionOptions, type TLSSocket } from "node:tls";
import {
  createCa,
  createKeyAndCsr,
  issueServerCertificate,
  signNodeCsr,
  type KeyAndCertificate,
} from "@llmgw/pki";
import { AGENT_WS_PATH } from "@llmgw/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { AGENT_PORT_BACKLOG, startAgentServer, type AgentServer } from "./agent-server";

let ca: KeyAndCertificate;
let server: AgentServer;
const refusals: string[] = [];
const resumed: boolean[] = [];

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
  server = await startAgentServer({
    host: "127.0.0.1",
    port: 0,
    maxFrameBytes: 1 << 20,
    unregisteredPerAddressMax: 100,
    handshakesAtOnceMax: 1,
    tls: { key: own.keyPem, cert: own.certPem, ca: ca.certPem },
    routes: [],
    identify: (socket: TLSSocket) => {
      resumed.push(socket.isSessionReused());
      const cn = socket.getPeerCertificate().subject.CN;
      return socket.authorized && typeof cn === "string"
        ? { ok: true, nodeId: cn }
        : { ok: false, reason: "no node certificate" };
    },
    identifyControlPlane: () => ({ ok: false, status: 401, reason: "none" }),
    onConnection: () => ({ isRegistered: () => false, onEnvelope: () => {}, onClose: () => {} }),
    onMalformedFrame: () => {},
    log: () => {},
    onRefused: (_address, reason) => refusals.push(reason),
  });
}, 30_000);

afterAll(() => server.close());

/** As apps/agent's TlsSessionCache: offers the last session the server gave, keeps the newest. */
function sessionKeeper() {
  let session: Buffer | undefined;
  const open = (options: ConnectionOptions) => {
    const socket = connect({ ...options, path: undefined, servername: "", session });
    socket.on("session", (next: Buffer) => (session = next));
    return socket;
  };
  return open as unknown as typeof createConnection;
}

function dial(tls: { ca: string; cert: string; key: string }, connector?: typeof createConnection) {
  const ws = new WebSocket(`wss://127.0.0.1:${server.port}${AGENT_WS_PATH}`, {
    ...tls,
    ...(connector ? { createConnection: connector } : {}),
  });
  return new Promise<void>((resolve, reject) => {
    ws.once("open", () => {
      ws.terminate();
      resolve();
    });
    ws.once("error", reject);
  });
}

describe("agent port: a storm past the handshake limit", () => {
  it("lets 12 dials at once in one handshake at a time, closing none", async () => {
    const identities = await Promise.all(
      Array.from({ length: 12 }, (_, at) => nodeIdentity(`node-${at}`)),
    );
    refusals.length = 0;
    await Promise.all(identities.map((tls) => dial(tls)));
    expect(refusals).toEqual([]);
  });

  it("resumes a node's TLS session on its next dial through the gate", async () => {
    const tls = await nodeIdentity("node-resume");
    const sessions = sessionKeeper();
    await dial(tls, sessions);
    // The ticket arrives after the handshake; give it a moment before the next dial.
    await new Promise((resolve) => setTimeout(resolve, 100));
    resumed.length = 0;
    await dial(tls, sessions);
    expect(resumed).toEqual([true]);
  });
});

describe("agent port: the kernel's accept queue", () => {
  it("listens with a backlog of 4,096, as far as net.core.somaxconn allows", () => {
    // `ss` shows a listening socket's backlog in its Send-Q column.
    const line = execFileSync("ss", ["-ltnH", `sport = :${server.port}`], { encoding: "utf8" });
    const backlog = Number(line.trim().split(/\s+/)[2]);
    const somaxconn = Number(readFileSync("/proc/sys/net/core/somaxconn", "utf8"));
    expect(AGENT_PORT_BACKLOG).toBe(4_096);
    expect(backlog).toBe(Math.min(AGENT_PORT_BACKLOG, somaxconn));
  });
});
