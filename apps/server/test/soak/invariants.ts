// What the soak holds the system to, as pure checks over what it sampled: every request a client
// saw fail is explained by the answer itself, and the usage the server recorded matches what the
// clients saw, request by request.
import type { StreamEnd } from "../fault-load";

/** Statuses a refusal may carry and still be explained: a limit, or "not now, retry". */
const EXPLAINED_STATUSES = new Set([429, 503]);

/** Why a client's failed request counts as explained, or why it does not. */
export function explainFailure(end: Exclude<StreamEnd, { kind: "ok" }>): {
  explained: boolean;
  how: string;
} {
  if (end.kind === "cut")
    return end.errorCode && end.errorCode !== "unknown"
      ? { explained: true, how: `stream cut with error ${end.errorCode}` }
      : { explained: false, how: "stream cut with an error event that names no code" };
  if (end.kind === "broken") return { explained: false, how: end.why };
  const code = refusalCode(end.body);
  if (!EXPLAINED_STATUSES.has(end.status))
    return { explained: false, how: `answered ${end.status} (${code ?? "no code"})` };
  return code
    ? { explained: true, how: `${end.status} ${code}` }
    : { explained: false, how: `${end.status} without an error code` };
}

/** The OpenAI-shaped `error.code` of a refusal's body, if it has one. */
function refusalCode(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown } };
    const code = parsed.error?.code;
    return typeof code === "string" && code !== "" ? code : undefined;
  } catch {
    return undefined;
  }
}

export interface UsageRow {
  requestId: string;
  status: number;
}

/**
 * Every request that reached the model's gateway path is one usage row: one row for a request
 * the client saw streamed (finished or cut), with status 200; at most one for a refusal (those
 * refused before the request was read, such as an unknown key, are not counted), with its
 * status; and no row for a request id no client sent. Returns what does not match.
 */
export function reconcileUsage(
  requests: ReadonlyArray<{ requestId: string; end: StreamEnd }>,
  rows: readonly UsageRow[],
): string[] {
  const byId = new Map<string, UsageRow[]>();
  for (const row of rows) byId.set(row.requestId, [...(byId.get(row.requestId) ?? []), row]);
  const found: string[] = [];
  for (const { requestId, end } of requests) {
    const recorded = byId.get(requestId) ?? [];
    byId.delete(requestId);
    if (recorded.length > 1) found.push(`${requestId}: ${recorded.length} usage rows`);
    const [row] = recorded;
    if (end.kind === "ok" || end.kind === "cut") {
      if (!row) found.push(`${requestId}: streamed to the client, no usage row`);
      else if (row.status !== 200)
        found.push(`${requestId}: streamed to the client, recorded as ${row.status}`);
    } else if (end.kind === "refused" && row && row.status !== end.status)
      found.push(`${requestId}: refused with ${end.status}, recorded as ${row.status}`);
  }
  for (const [requestId, extra] of byId)
    found.push(`${requestId}: ${extra.length} usage row(s) for a request no client sent`);
  return found;
}

/**
 * Engines a node still runs for a replica the control plane no longer holds (its node was taken
 * for lost while its agent was silent, or it was replaced). Such an engine is expected for a
 * moment: it is stopped once its agent hears the control plane again, after the engine's stop
 * grace. One still running `boundMs` after it was first seen orphaned is a violation.
 */
export class OrphanEngines {
  private readonly since = new Map<string, number>();

  constructor(private readonly boundMs: number) {}

  /** `engines`: what the agents record; `held`: the replica ids the store holds cards for. */
  check(
    engines: ReadonlyArray<{ replicaId: string; node: string }>,
    held: ReadonlySet<string>,
    nowMs: number,
  ): string[] {
    const seen = new Set<string>();
    const found: string[] = [];
    for (const { replicaId, node } of engines) {
      if (held.has(replicaId)) continue;
      const key = `${node}/${replicaId}`;
      seen.add(key);
      const firstMs = this.since.get(key) ?? nowMs;
      this.since.set(key, firstMs);
      if (nowMs - firstMs > this.boundMs)
        found.push(
          `${node} still runs the engine of ${replicaId}, which the control plane no longer holds, ${Math.round((nowMs - firstMs) / 1000)} s on`,
        );
    }
    for (const key of this.since.keys()) if (!seen.has(key)) this.since.delete(key);
    return found;
  }
}

/**
 * When the fleet was settled again after `afterMs`: the time of the first sample at or after it
 * from which every later sample found it settled. Undefined when the last sample did not (or no
 * sample came after `afterMs`), so the caller has to wait for it.
 */
export function settledSince(
  samples: ReadonlyArray<{ atMs: number; settled: boolean }>,
  afterMs: number,
): number | undefined {
  let since: number | undefined;
  for (const { atMs, settled } of samples) {
    if (atMs < afterMs) continue;
    if (!settled) since = undefined;
    else since ??= atMs;
  }
  return since;
}
