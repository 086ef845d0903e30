// A stand-in control plane for agent tests that speaks what the real agent port speaks: TLS with a
// cluster CA made here, a client certificate asked for, and the WebSocket at /agent/v1. It also
// prepares a data dir as `llmgw agent join` leaves it (node-id and pki/), for a node id chosen here.
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { createCa, createKeyAndCsr, issueServerCertificate, signNodeCsr } from "@llmgw/pki";
import { AGENT_WS_PATH } from "@llmgw/proto";
import { WebSocketServer } from "ws";

export interface TlsAgentServer {
  /** `wss://127.0.0.1:PORT`. */
  url: string;
  wss: WebSocketServer;
  caPem: string;
  /** The CN of the client certificate each accepted socket presented, in order. */
  peers: string[];
  /** Writes node-id and pki/{ca.crt,node.crt,node.key} into dataDir for nodeId. */
  enrol(dataDir: string, nodeId: string): Promise<{ ca: string; cert: string; key: string }>;
  close(): Promise<void>;
}

export async function startTlsAgentServer(): Promise<TlsAgentServer> {
  const ca = await createCa("test CA", 1);
  const server = await issueServerCertificate(ca, {
    names: ["localhost"],
    addresses: ["127.0.0.1"],
    validDays: 1,
  });
  const https: Server = createServer({
    key: server.keyPem,
    cert: server.certPem,
    ca: ca.certPem,
    requestCert: true,
    rejectUnauthorized: true,
  });
  const wss = new WebSocketServer({ server: https, path: AGENT_WS_PATH });
  const peers: string[] = [];
  wss.on("connection", (_socket, req) => {
    peers.push(String((req.socket as TLSSocket).getPeerCertificate().subject.CN));
  });
  await new Promise<void>((resolve) => https.listen(0, "127.0.0.1", resolve));
  return {
    url: `wss://127.0.0.1:${(https.address() as AddressInfo).port}`,
    wss,
    caPem: ca.certPem,
    peers,
    async enrol(dataDir, nodeId) {
      const { keyPem, csrPem } = await createKeyAndCsr(nodeId);
      const { certPem } = await signNodeCsr(ca, csrPem, { nodeId, validDays: 1 });
      await mkdir(join(dataDir, "pki"), { recursive: true });
      await writeFile(join(dataDir, "node-id"), `${nodeId}\n`);
      await writeFile(join(dataDir, "pki", "ca.crt"), ca.certPem);
      await writeFile(join(dataDir, "pki", "node.crt"), certPem);
      await writeFile(join(dataDir, "pki", "node.key"), keyPem, { mode: 0o600 });
      return { ca: ca.certPem, cert: certPem, key: keyPem };
    },
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => wss.close(resolve));
      await new Promise((resolve) => https.close(resolve));
    },
  };
}
