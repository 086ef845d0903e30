// On a simulated node the cards' utilisation follows the engines placed on them. This reads each
// ready replica's /metrics (open without a key, as vLLM's is) and spreads its load over its cards,
// so the simulation sees the same requests the gateway sends. A scrape that fails leaves that
// replica's cards idle for one heartbeat; a slow one never delays a heartbeat (see
// createDemandReader).
import { parseEngineMetrics, VLLM_METRIC_NAMES } from "@llmgw/engines";
import { ReplicaPhase } from "@llmgw/proto";
import type { ReplicaStatusInit } from "./replicas/replica-deps";
import type { CardDemand } from "./simulate";

const ENGINE_SCRAPE_TIMEOUT_MS = 1500;

export type FetchText = (url: string, timeoutMs: number) => Promise<string>;

const fetchText: FetchText = async (url, timeoutMs) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.text();
};

/** The demand on every card that hosts a ready replica, keyed by card index. */
export async function readCardDemands(
  statuses: readonly ReplicaStatusInit[],
  fetch: FetchText = fetchText,
): Promise<Map<number, CardDemand>> {
  const ready = statuses.filter(
    (status) =>
      status.phase === ReplicaPhase.READY && status.port && (status.gpuIndexes?.length ?? 0) > 0,
  );
  const demands = new Map<number, CardDemand>();
  const scraped = await Promise.all(
    ready.map(async (status) => {
      try {
        const text = await fetch(
          `http://${urlHost(status.host ?? "")}:${status.port}/metrics`,
          ENGINE_SCRAPE_TIMEOUT_MS,
        );
        return { status, load: parseEngineMetrics(text, VLLM_METRIC_NAMES) };
      } catch {
        return { status, load: {} };
      }
    }),
  );
  for (const { status, load } of scraped) {
    const demand: CardDemand = {
      runningRequests: load.runningRequests ?? 0,
      waitingRequests: load.waitingRequests ?? 0,
      kvCacheUsageRatio: load.kvCacheUsageRatio ?? 0,
    };
    for (const index of status.gpuIndexes ?? []) demands.set(index, demand);
  }
  return demands;
}

function urlHost(host: string): string {
  if (host === "" || host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Heartbeats must not wait on engines: each call answers the last completed scrape at once and
 * starts the next one unless one is still under way. Load therefore shows up one beat late.
 */
export function createDemandReader(
  statuses: () => readonly ReplicaStatusInit[],
  fetch: FetchText = fetchText,
): () => Promise<Map<number, CardDemand>> {
  let latest = new Map<number, CardDemand>();
  let inFlight: Promise<void> | null = null;
  return async () => {
    inFlight ??= readCardDemands(statuses(), fetch)
      .then((demands) => {
        latest = demands;
      })
      .finally(() => {
        inFlight = null;
      });
    return latest;
  };
}
