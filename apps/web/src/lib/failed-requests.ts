// The failed-requests table's pure parts: the window a usage range covers, and the link that opens
// a request's node log on the request's lines (none when the node is unknown or gone).
import { USAGE_RANGES, type FailedRequest, type UsageRange } from "@llmgw/api/schemas";

export function rangeSinceIso(range: UsageRange, nowMs: number): string {
  return new Date(nowMs - USAGE_RANGES[range].rangeSeconds * 1_000).toISOString();
}

/** `/nodes/ID/logs?request=ID`: the node's log view, searching for this request's lines. */
export function nodeLogsHref(request: FailedRequest): string | null {
  if (request.noNodeReason !== null || request.nodeId === null) return null;
  const query = new URLSearchParams({ request: request.requestId });
  return `/nodes/${encodeURIComponent(request.nodeId)}/logs?${query.toString()}`;
}
