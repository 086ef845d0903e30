// Joining a cluster (the kubeadm model): fetch the CA without trusting anything, refuse unless
// its fingerprint is the one the operator pinned (so a man in the middle never sees the token),
// then, trusting only that CA, send the token with a CSR for this node's id and keep the
// certificate. The private key is made here and never leaves the node.
import { caFingerprint, createKeyAndCsr } from "@llmgw/pki";
import { messageOf } from "@llmgw/domain";
import { httpsCall, refusalText } from "./https-json";
import { loadOrCreateNodeId } from "./node-identity";
import { saveNodeTls, saveServerUrls } from "./node-tls";
import { mergeServerUrls } from "./server-list";

export class JoinError extends Error {
  override readonly name = "JoinError";
}

export interface JoinRequest {
  serverUrl: string;
  /** Every address to remember for later connections (the first one is joined through). */
  serverUrls?: readonly string[];
  token: string;
  caSha256: string;
  dataDir: string;
  nodeName: string;
}

/** `wss://host:port` → `https://host:port`, the same port's HTTPS routes. */
export function httpsBase(serverUrl: string): string {
  const url = new URL(serverUrl);
  if (url.protocol !== "wss:") throw new JoinError(`${serverUrl}: a wss:// address is required`);
  return `https://${url.host}`;
}

/** `AB:CD…`, `sha256:abcd…` → `abcd…`; null when it is not 64 hex digits. */
export function normaliseFingerprint(value: string): string | null {
  const hex = value
    .trim()
    .toLowerCase()
    .replace(/^sha256:/, "")
    .replaceAll(":", "");
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

/** Fetches the CA and checks its fingerprint; throws before anything secret is sent. */
async function fetchPinnedCa(serverUrl: string, caSha256: string): Promise<string> {
  const pinned = normaliseFingerprint(caSha256);
  if (pinned === null)
    throw new JoinError("--ca-sha256 must be the CA's SHA-256 fingerprint: 64 hex digits");
  const answer = await httpsCall({
    url: `${httpsBase(serverUrl)}/agent/v1/ca`,
    method: "GET",
    tls: { insecure: true },
  }).catch((error: unknown) => {
    throw new JoinError(`${serverUrl}: cannot fetch the cluster CA (${messageOf(error)})`);
  });
  if (answer.status !== 200)
    throw new JoinError(`${serverUrl}: the CA was not answered (${refusalText(answer)})`);
  let seen: string;
  try {
    seen = caFingerprint(answer.text);
  } catch {
    throw new JoinError(`${serverUrl}: the answer to /agent/v1/ca is not a certificate`);
  }
  if (seen !== pinned)
    throw new JoinError(
      `${serverUrl} presents a CA with fingerprint ${seen}, not the pinned ${pinned}: refusing to send the token (a wrong address, or someone in the middle)`,
    );
  return answer.text;
}

export interface Joined {
  nodeId: string;
  caSha256: string;
}

export async function joinCluster(request: JoinRequest): Promise<Joined> {
  const ca = await fetchPinnedCa(request.serverUrl, request.caSha256);
  const nodeId = await loadOrCreateNodeId(request.dataDir);
  const { keyPem, csrPem } = await createKeyAndCsr(nodeId);
  const answer = await httpsCall({
    url: `${httpsBase(request.serverUrl)}/agent/v1/join`,
    method: "POST",
    body: { token: request.token, csr: csrPem, nodeName: request.nodeName },
    tls: { ca },
  }).catch((error: unknown) => {
    throw new JoinError(`${request.serverUrl}: the join request failed (${messageOf(error)})`);
  });
  if (answer.status !== 200)
    throw new JoinError(`${request.serverUrl} refused to join this node: ${refusalText(answer)}`);
  const joined = JSON.parse(answer.text) as { certificate?: unknown; agentUrls?: unknown };
  if (typeof joined.certificate !== "string")
    throw new JoinError(`${request.serverUrl} answered the join without a certificate`);
  saveNodeTls(request.dataDir, { ca, key: keyPem, cert: joined.certificate });
  // Every control plane the cluster names joins the list, so the first start can fail over.
  const given = request.serverUrls ?? [request.serverUrl];
  const announced = Array.isArray(joined.agentUrls)
    ? joined.agentUrls.filter((url): url is string => typeof url === "string")
    : [];
  saveServerUrls(request.dataDir, mergeServerUrls(request.serverUrl, given, announced) ?? given);
  return { nodeId, caSha256: caFingerprint(ca) };
}
