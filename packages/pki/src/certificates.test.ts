import { X509Certificate } from "node:crypto";
import { createServer, connect, type TLSSocket } from "node:tls";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import {
  caFingerprint,
  createCa,
  createKeyAndCsr,
  csrCommonName,
  issueServerCertificate,
  normalizeSerialHex,
  readCertificate,
  signNodeCsr,
} from "./certificates";

describe("cluster certificates", () => {
  it("makes a CA, a server certificate and a node certificate that Node's TLS accepts both ways", async () => {
    const ca = await createCa("test CA", 10);
    const server = await issueServerCertificate(ca, {
      names: ["localhost"],
      addresses: ["127.0.0.1"],
      validDays: 10,
    });
    const node = await createKeyAndCsr("node-a");
    const issued = await signNodeCsr(ca, node.csrPem, { nodeId: "node-a", validDays: 30 });
    const peer = await handshake(ca.certPem, server, {
      certPem: issued.certPem,
      keyPem: node.keyPem,
    });
    expect(peer.authorized).toBe(true);
    expect(peer.cn).toBe("node-a");
    expect(normalizeSerialHex(peer.serial)).toBe(issued.serialHex);
  });

  it("puts the node id in the CN, client auth only, and the lifetime asked for", async () => {
    const ca = await createCa("test CA", 10);
    const { csrPem } = await createKeyAndCsr("node-b");
    const issued = await signNodeCsr(ca, csrPem, { nodeId: "node-b", validDays: 30 });
    const facts = await readCertificate(issued.certPem);
    expect(facts.subjectCn).toBe("node-b");
    expect(facts.notAfterMs).toBe(issued.notAfterMs);
    expect(facts.notAfterMs - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const cert = new X509Certificate(issued.certPem);
    expect(cert.checkIssued(new X509Certificate(ca.certPem))).toBe(true);
    expect(cert.keyUsage).toEqual(["1.3.6.1.5.5.7.3.2"]);
    const short = await signNodeCsr(ca, csrPem, {
      nodeId: "node-b",
      validDays: 30,
      validSeconds: 60,
    });
    expect(short.notAfterMs - Date.now()).toBeLessThan(61_000);
  });

  it("refuses a CSR naming another node", async () => {
    const ca = await createCa("test CA", 10);
    const { csrPem } = await createKeyAndCsr("node-a");
    await expect(signNodeCsr(ca, csrPem, { nodeId: "node-b", validDays: 1 })).rejects.toThrow(
      /names "node-a", not the node id "node-b"/,
    );
  });

  it("refuses a CSR whose signature was tampered with, and text that is no CSR", async () => {
    const ca = await createCa("test CA", 10);
    const { csrPem } = await createKeyAndCsr("node-a");
    const body = csrPem
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("-----"))
      .join("");
    const der = Buffer.from(body, "base64");
    const lastByte = der.length - 1;
    der[lastByte] = (der[lastByte] ?? 0) ^ 0xff;
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString("base64")}\n-----END CERTIFICATE REQUEST-----\n`;
    await expect(signNodeCsr(ca, tampered, { nodeId: "node-a", validDays: 1 })).rejects.toThrow(
      /signature/,
    );
    await expect(csrCommonName("hello")).rejects.toThrow(/not a PEM certificate signing request/);
  });

  it("fingerprints the CA as Node does (SHA-256 of the DER)", async () => {
    const ca = await createCa("test CA", 10);
    const nodeView = new X509Certificate(ca.certPem).fingerprint256
      .replaceAll(":", "")
      .toLowerCase();
    expect(caFingerprint(ca.certPem)).toBe(nodeView);
    expect((await readCertificate(ca.certPem)).fingerprintSha256).toBe(nodeView);
  });

  it("writes serials one way whatever their source", () => {
    expect(normalizeSerialHex("0A:1B:FF")).toBe("a1bff");
    expect(normalizeSerialHex("00")).toBe("0");
  });
});

interface Pair {
  certPem: string;
  keyPem: string;
}

/** A real TLS handshake: the server asks for a client certificate and reports what it saw. */
async function handshake(
  caPem: string,
  server: Pair,
  client: Pair,
): Promise<{ authorized: boolean; cn: string; serial: string }> {
  const seen = new Promise<{ authorized: boolean; cn: string; serial: string }>((resolve) => {
    const tlsServer = createServer(
      {
        key: server.keyPem,
        cert: server.certPem,
        ca: caPem,
        requestCert: true,
        rejectUnauthorized: false,
      },
      (socket: TLSSocket) => {
        const peer = socket.getPeerCertificate();
        resolve({
          authorized: socket.authorized,
          cn: String(peer.subject.CN),
          serial: peer.serialNumber,
        });
        socket.end();
        tlsServer.close();
      },
    );
    tlsServer.listen(0, "127.0.0.1", () => {
      const { port } = tlsServer.address() as AddressInfo;
      const socket = connect({
        host: "127.0.0.1",
        port,
        ca: caPem,
        cert: client.certPem,
        key: client.keyPem,
        servername: "localhost",
      });
      socket.on("error", () => undefined);
      socket.on("secureConnect", () => socket.end());
    });
  });
  return seen;
}
