// What a node's log page offers: its sources (the agent's own log, then one per replica) and the
// line counts to show. The page and its toolbar both read these, so they live apart from either.

export const LOG_LINE_CHOICES = [100, 200, 500, 1000, 2000] as const;
export const AGENT_SOURCE = "agent";
/** Lines shown when the page opens. */
export const LOG_LINES_DEFAULT = 200;

/**
 * What the page asks `logs.get` for: the source and request id in its URL (`?source=`,
 * `?request=`), so its prefetch, started as the console loads, asks with the very same input.
 */
export function logsInput(nodeId: string, search: URLSearchParams, lines = LOG_LINES_DEFAULT) {
  const source = search.get("source") ?? AGENT_SOURCE;
  const requestId = search.get("request") ?? "";
  return requestId === ""
    ? { node: nodeId, source, lines }
    : { node: nodeId, source, lines, requestId, everySource: true };
}
