// Sends a request for `PEER/MODEL` to the peer: the body's model becomes the peer's own name, the
// peer's key replaces the caller's, the hop list grows by this cluster, the request id goes along
// and, for a peer added with --send-tags, the caller's attribution. Nothing here retries: the peer
// is a whole cluster with its own retries, and a second try would double what it is asked to do.
import type { ServerResponse } from "node:http";
import type { ApiKeyRow } from "@llmgw/db";
import { messageOf } from "@llmgw/domain";
import { request } from "undici";
import { GatewayError } from "../gateway/errors";
import { withModel } from "../gateway/fallbacks";
import { relay, type ForwardOutcome } from "../gateway/forward";
import { UsageScanner } from "../gateway/usage-scan";
import { StreamBody } from "../gateway/upstream-body";
import { UsageChunkFilter } from "../gateway/usage-stream";
import type { Federation, PeerTarget } from "./federation";
import { hopsOnward } from "./hop";
import { peerPath } from "./peer-url";

/** Names the caller to a peer added with --send-tags, so the peer can attribute its usage. */
const ATTRIBUTION_HEADER = "x-llmgw-attribution";

const PASSED_HEADERS = ["content-type", "cache-control", "retry-after"];

export interface PeerJob {
  target: PeerTarget;
  path: string;
  /** The body as this cluster would send it upstream; its model is replaced here. */
  body: Buffer;
  requestId: string;
  accept: string | undefined;
  signal: AbortSignal;
  dropsUsageChunk: boolean;
  hops: readonly string[];
  key: Pick<ApiKeyRow, "owner" | "prefix">;
}

export interface PeerForwardDeps {
  federation: Federation;
  metrics: { peerRequest(peer: string, outcome: string): void };
  /** How often peers are checked: a down peer's models say when to try again. */
  checkIntervalMs: number;
  nowMs(): number;
  log(line: string): void;
}

export async function forwardToPeer(
  deps: PeerForwardDeps,
  job: PeerJob,
  res: ServerResponse,
): Promise<ForwardOutcome> {
  const { peer } = job.target;
  const name = peer.row.name;
  const replicaId = `peer:${name}`;
  if (job.target.isWithdrawn)
    throw new GatewayError(
      503,
      `peer ${name} no longer offers model "${job.target.model}"; it is kept here only because a fallback names it`,
      "service_unavailable",
      "peer_model_withdrawn",
    );
  if (peer.breaker.isOpen) {
    deps.metrics.peerRequest(name, "peer_unavailable");
    throw new GatewayError(
      503,
      `peer ${name} is out of routing: ${peer.lastError ?? "its requests failed"}; it comes back when its /ready answers`,
      "service_unavailable",
      "peer_unavailable",
      { "retry-after": String(Math.max(1, Math.ceil(deps.checkIntervalMs / 1_000))) },
    );
  }
  const headers: Record<string, string> = {
    ...deps.federation.peerHeaders(peer, hopsOnward(job.hops, deps.federation.clusterId)),
    "x-request-id": job.requestId,
    "content-type": "application/json",
  };
  if (job.accept) headers.accept = job.accept;
  if (peer.row.sendsTags)
    headers[ATTRIBUTION_HEADER] = `owner=${job.key.owner};key=${job.key.prefix}`;
  let answer: Awaited<ReturnType<typeof request>>;
  try {
    answer = await request(peerPath(peer.row.url, job.path), {
      dispatcher: deps.federation.agent,
      method: "POST",
      headers,
      body: withModel(job.body, job.target.model),
      signal: job.signal,
    });
  } catch (error) {
    if (job.signal.aborted) throw error;
    peer.breaker.requestFailed();
    deps.metrics.peerRequest(name, "unreachable");
    deps.log(`request ${job.requestId}: peer ${name} could not be reached: ${messageOf(error)}`);
    throw new GatewayError(
      502,
      `peer ${name} could not be reached`,
      "server_error",
      "peer_unreachable",
    );
  }
  if (answer.statusCode >= 500 && answer.statusCode !== 508) peer.breaker.requestFailed();
  else peer.breaker.requestServed();
  deps.metrics.peerRequest(name, String(answer.statusCode));
  const passed: Record<string, string> = {};
  for (const header of PASSED_HEADERS) {
    const value = answer.headers[header];
    if (typeof value === "string") passed[header] = value;
  }
  res.writeHead(answer.statusCode, { ...passed, "x-request-id": job.requestId });
  const scanner = new UsageScanner(deps.nowMs);
  const filter =
    job.dropsUsageChunk && passed["content-type"]?.startsWith("text/event-stream")
      ? new UsageChunkFilter()
      : null;
  const broke = await relay(new StreamBody(answer.body), { scanner, filter }, res, job.signal);
  if (broke && !job.signal.aborted) {
    deps.log(`request ${job.requestId}: the answer from peer ${name} broke off: ${broke.message}`);
    res.destroy();
  }
  return {
    status: answer.statusCode,
    replicaId,
    usage: scanner.usage(),
    firstByteAtMs: scanner.firstByteAtMs,
  };
}
