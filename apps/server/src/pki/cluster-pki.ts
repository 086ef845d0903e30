// The server's side of the cluster PKI, as main.ts starts it: the files in its home (made where
// missing, the CA never replaced), the issued and revoked node certificates, and the check every
// agent connection's client certificate goes through.
import { readFileSync } from "node:fs";
import type { TLSSocket } from "node:tls";
import type { Database } from "@llmgw/db";
import { ensureServerPki, normalizeSerialHex, readServerCa, type ServerPkiPaths } from "@llmgw/pki";
import type { ControlPlanePeer, PeerIdentity } from "../agents/agent-http";
import { NodeCertificates } from "./node-certificates";

export interface ClusterPki {
  paths: ServerPkiPaths;
  caCertPem: string;
  tls: { key: string; cert: string; ca: string };
  certificates: NodeCertificates;
  identify(socket: TLSSocket): PeerIdentity;
  identifyControlPlane(socket: TLSSocket): ControlPlanePeer;
}

export interface ClusterPkiOptions {
  homeDir: string;
  agentTls: { names: string[]; addresses: string[] };
  nodeCertValidSeconds: number;
  db: Database;
  nowMs(): number;
}

export async function openClusterPki(options: ClusterPkiOptions): Promise<ClusterPki> {
  const paths = await ensureServerPki(options.homeDir, options.agentTls);
  const ca = readServerCa(options.homeDir);
  const certificates = await NodeCertificates.open(
    options.db,
    ca,
    options.nodeCertValidSeconds,
    options.nowMs,
  );
  return {
    paths,
    caCertPem: ca.certPem,
    tls: {
      key: readFileSync(paths.keyPath, "utf8"),
      cert: readFileSync(paths.certPath, "utf8"),
      ca: ca.certPem,
    },
    certificates,
    identify: (socket) => identifyPeer(socket, certificates, options.nowMs()),
    identifyControlPlane: (socket) => identifyControlPlane(socket, options.nowMs()),
  };
}

const NO_CERTIFICATE =
  "a node certificate of this cluster is required: join first (llmgw agent join wss://HOST:PORT --token T --ca-sha256 H)";

/** Node's TLS checked the chain and the dates; revocation is checked here, from memory. */
function identifyPeer(
  socket: TLSSocket,
  certificates: Pick<NodeCertificates, "isRevoked">,
  nowMs: number,
): PeerIdentity {
  const peer = socket.getPeerCertificate();
  const hasCertificate = typeof peer.serialNumber === "string" && peer.serialNumber !== "";
  if (!hasCertificate) return { ok: false, reason: NO_CERTIFICATE };
  if (!socket.authorized)
    return {
      ok: false,
      reason: `the client certificate was refused (${String(socket.authorizationError)}): it must come from this cluster's CA and be current`,
    };
  if (certificates.isRevoked(peer.serialNumber))
    return {
      ok: false,
      reason: `the client certificate ${normalizeSerialHex(peer.serialNumber)} was revoked (the node was removed): join again with a new token`,
    };
  if (Date.parse(peer.valid_to) <= nowMs)
    return { ok: false, reason: "the client certificate has expired: join again with a new token" };
  const cn = peer.subject.CN;
  const nodeId = Array.isArray(cn) ? "" : (cn ?? "");
  if (nodeId === "") return { ok: false, reason: "the client certificate names no node" };
  return { ok: true, nodeId };
}

/** The serverAuth extended key usage: only control planes' certificates carry it. */
const SERVER_AUTH_OID = "1.3.6.1.5.5.7.3.1";

/**
 * Another control plane of this cluster: a current certificate from the cluster CA that may serve
 * TLS. Node certificates are signed for clientAuth alone (whatever their CSR asks), so a joined
 * node, however valid its certificate, is refused here.
 */
export function identifyControlPlane(socket: TLSSocket, nowMs: number): ControlPlanePeer {
  const peer = socket.getPeerCertificate();
  const hasCertificate = typeof peer.serialNumber === "string" && peer.serialNumber !== "";
  if (!hasCertificate)
    return { ok: false, status: 401, reason: "a control plane's certificate is required" };
  if (!socket.authorized || Date.parse(peer.valid_to) <= nowMs)
    return {
      ok: false,
      status: 401,
      reason: `the client certificate was refused (${String(socket.authorizationError ?? "expired")}): it must come from this cluster's CA and be current`,
    };
  if (!(peer.ext_key_usage ?? []).includes(SERVER_AUTH_OID))
    return {
      ok: false,
      status: 403,
      reason: "this route is for the cluster's control planes; a node certificate may not use it",
    };
  const cn = peer.subject.CN;
  return { ok: true, name: Array.isArray(cn) ? cn.join(",") : (cn ?? "") };
}
