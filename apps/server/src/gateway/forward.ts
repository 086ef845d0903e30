// Sends one admitted request to the model's replicas: least in-flight first, a retry on another
// endpoint only while nothing has reached the client, breakers fed by every outcome, and the
// answer streamed through with backpressure.
import type { ServerResponse } from "node:http";
import { once } from "node:events";
import { firstAcceptableAnswer, settle, type ForwardDeps, type ForwardJob } from "./attempts";
import { GUARD_HEADER } from "../guard/v1-guard";
import { GatewayError } from "./errors";
import { UsageScanner, type TokenUsage } from "./usage-scan";
import { UsageChunkFilter } from "./usage-stream";
import type { StreamGuard } from "../guard/stream-guard";
import { chunksOf, type UpstreamBody } from "./upstream-body";

export type { ForwardDeps, ForwardJob } from "./attempts";

export interface ForwardOutcome {
  status: number;
  /** The endpoint that answered: a replica id or `external:MODEL#n`. */
  replicaId: string | null;
  usage: TokenUsage | null;
  firstByteAtMs: number | null;
  /** The code of the error event that ended a stream begun with 200; absent when none did. */
  errorCode?: string;
}

export async function forward(
  deps: ForwardDeps,
  job: ForwardJob,
  res: ServerResponse,
  noEndpoint: () => GatewayError,
): Promise<ForwardOutcome> {
  const answer = await firstAcceptableAnswer(deps, job, noEndpoint);
  const { endpoint, result } = answer;
  if (!endpoint.external && (result.status === 401 || result.status === 403)) {
    // The replica refused the key this gateway derived for it: a fault here, never the client's.
    await result.body.dump().catch(() => undefined);
    if (!answer.isSettled) settle(deps, endpoint, "connection-error");
    throw new GatewayError(
      502,
      `replica ${endpoint.id} of model "${job.model}" refused its replica key`,
      "server_error",
      "replica_key_refused",
    );
  }
  const scanner = new UsageScanner(deps.nowMs);
  const isJson = result.headers["content-type"]?.startsWith("application/json") === true;
  if (job.rewriteAnswer && result.status === 200 && isJson) {
    const read = await rewritten(result.body, scanner, job.rewriteAnswer).finally(() => {
      if (!answer.isSettled) settle(deps, endpoint, result.status);
    });
    const head = answerHead(result.headers);
    head["x-request-id"] = job.requestId;
    if (read.header) head[GUARD_HEADER] = read.header;
    res.writeHead(result.status, head);
    res.end(read.body);
    return {
      status: 200,
      replicaId: endpoint.id,
      usage: scanner.usage(),
      firstByteAtMs: scanner.firstByteAtMs,
    };
  }
  const isSse = result.headers["content-type"]?.startsWith("text/event-stream") === true;
  const filter = job.dropsUsageChunk && isSse ? new UsageChunkFilter() : null;
  const guard = isSse && result.status === 200 ? (job.guardStream?.() ?? null) : null;
  // A body passed on byte for byte keeps its length for the client too.
  const length = filter === null && guard === null ? result.length : undefined;
  const head = answerHead(result.headers);
  if (length !== undefined) head["content-length"] = length;
  head["x-request-id"] = job.requestId;
  res.writeHead(result.status, head);
  const upstream = job.trace?.open("llmgw.upstream", { "llmgw.endpoint": endpoint.id });
  const broke = await relay(result.body, { scanner, filter, guard }, res, job.signal);
  upstream?.end(broke ? "upstream_interrupted" : result.status);
  if (!answer.isSettled)
    settle(deps, endpoint, broke && !job.signal.aborted ? "connection-error" : result.status);
  if (broke && !job.signal.aborted) {
    deps.log(
      `request ${job.requestId}: the answer from ${endpoint.id} broke off: ${broke.message}`,
    );
    endBroken(res, result.headers["content-type"], endpoint.id);
  }
  const errorCode = broke && !job.signal.aborted ? BROKEN_CODE : (guard?.cutCode ?? undefined);
  const outcome: ForwardOutcome = {
    status: result.status,
    replicaId: endpoint.id,
    usage: scanner.usage(),
    firstByteAtMs: scanner.firstByteAtMs,
  };
  if (errorCode) outcome.errorCode = errorCode;
  return outcome;
}

/**
 * A copy of the engine's headers that passed, to add the answer's own to. Copied name by name:
 * V8 spreads an object built name by name (as the attempt builds them) through its runtime, about
 * 1 µs an answer against a few ns.
 */
function answerHead(passed: Readonly<Record<string, string>>): Record<string, string> {
  const head: Record<string, string> = {};
  for (const name of Object.keys(passed)) head[name] = passed[name] ?? "";
  return head;
}

/** A whole answer read, then changed by the guard before any of it reaches the client. */
async function rewritten(
  body: UpstreamBody,
  scanner: UsageScanner,
  rewrite: NonNullable<ForwardJob["rewriteAnswer"]>,
): Promise<{ body: Buffer; header: string | null }> {
  const chunks: Buffer[] = [];
  try {
    await body.read((chunk) => {
      scanner.see(chunk);
      chunks.push(chunk);
      return true;
    });
  } catch {
    throw new GatewayError(
      502,
      "the answer broke off before the guard could read it",
      "server_error",
      "upstream_interrupted",
    );
  }
  return rewrite(Buffer.concat(chunks));
}

interface RelayThrough {
  scanner: UsageScanner;
  filter: UsageChunkFilter | null;
  guard?: StreamGuard | null;
}

/**
 * Copies the answer to the client, pausing the engine's body while the client drains; returns the
 * error that cut it short. The scanner reads the engine's bytes; the client gets them through the
 * guard and the filter, when there are. A guard that blocks the answer ends it with its error
 * event; the rest of the engine's answer is left unread (the connection to it closes).
 */
export function relay(
  body: UpstreamBody,
  through: RelayThrough,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<Error | null> {
  const { scanner, filter, guard } = through;
  if (guard) return relayGuarded(body, { scanner, filter, guard }, res, signal);
  // Each chunk is written on the turn it arrives, with no promise per chunk.
  let isWaiting = false;
  const onDrain = () => {
    if (!isWaiting) return;
    isWaiting = false;
    body.resume();
  };
  res.on("drain", onDrain);
  return body
    .read((chunk) => {
      scanner.see(chunk);
      const out = filter ? filter.push(chunk) : chunk;
      if (out.length === 0 || res.write(out)) return true;
      isWaiting = true;
      return false;
    })
    .then(
      () => {
        res.off("drain", onDrain);
        const rest = filter?.end();
        if (rest && rest.length > 0) res.end(rest);
        else res.end();
        return null;
      },
      (error: unknown) => {
        res.off("drain", onDrain);
        return error as Error;
      },
    );
}

/** The relay with the guard reading each chunk (it may wait on a judge) before the client. */
async function relayGuarded(
  body: UpstreamBody,
  through: RelayThrough & { guard: StreamGuard },
  res: ServerResponse,
  signal: AbortSignal,
): Promise<Error | null> {
  const { scanner, filter, guard } = through;
  const toClient = (bytes: Buffer) => (filter ? filter.push(bytes) : bytes);
  try {
    for await (const chunk of chunksOf(body)) {
      scanner.see(chunk);
      const out = toClient(await guard.push(chunk));
      if (out.length > 0 && !res.write(out)) await once(res, "drain", { signal });
      if (guard.isCut) break;
    }
    const last = guard.isCut ? null : toClient(await guard.end());
    res.end(filter ? Buffer.concat([last ?? Buffer.alloc(0), filter.end()]) : last);
    return null;
  } catch (error) {
    return error as Error;
  }
}

const BROKEN_CODE = "upstream_interrupted";

/** A stream cut mid-way ends with an explicit error event, so clients do not take it for a whole answer. */
function endBroken(res: ServerResponse, contentType: string | undefined, replicaId: string): void {
  if (res.destroyed) return;
  if (contentType?.startsWith("text/event-stream")) {
    const error = {
      message: `the stream from replica ${replicaId} broke off before it finished`,
      type: "server_error",
      code: BROKEN_CODE,
    };
    res.end(`data: ${JSON.stringify({ error })}\n\n`);
  } else res.destroy();
}
