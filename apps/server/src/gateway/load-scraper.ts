// Reads each ready replica's /metrics every few seconds, off the request path, for the number of
// requests waiting in the engine's own queue. A scrape that fails, times out or finds no such
// series leaves the endpoint's queue unknown (null), never zero: an engine that cannot be measured
// must not look idle. External endpoints are never scraped.
import { messageOf } from "@llmgw/domain";
import {
  deriveReplicaKey,
  getEngineAdapter,
  isEngineName,
  parseEngineMetrics,
} from "@llmgw/engines";
import { request, type Dispatcher } from "undici";
import type { Endpoint, EndpointPool } from "./endpoints";

const SCRAPE_TIMEOUT_MS = 1_500;
const BODY_MAX_BYTES = 4 * 1024 * 1024;

export interface LoadScraper {
  /** One round over every ready replica now (the timer calls it; tests may too). */
  scrapeOnce(): Promise<void>;
  stop(): void;
}

export function startLoadScraper(
  pool: EndpointPool,
  agent: Dispatcher,
  replicaSecret: Uint8Array,
  intervalMs: number,
  log: (line: string) => void,
): LoadScraper {
  let round: Promise<void> | null = null;
  const failing = new Set<string>();

  const scrapeOne = async (endpoint: Endpoint): Promise<void> => {
    const names = isEngineName(endpoint.engine)
      ? getEngineAdapter(endpoint.engine).metricNames
      : undefined;
    if (!names) {
      endpoint.waiting = null;
      return;
    }
    try {
      const answer = await request(`${endpoint.baseUrl}/metrics`, {
        dispatcher: agent,
        headers: { authorization: `Bearer ${deriveReplicaKey(replicaSecret, endpoint.id)}` },
        headersTimeout: SCRAPE_TIMEOUT_MS,
        bodyTimeout: SCRAPE_TIMEOUT_MS,
        signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS),
      });
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        throw new Error(`status ${answer.statusCode}`);
      }
      const text = await answer.body.text();
      if (text.length > BODY_MAX_BYTES) throw new Error("the answer is too large");
      const waiting = parseEngineMetrics(text, names).waitingRequests;
      endpoint.waiting = waiting === undefined || !Number.isFinite(waiting) ? null : waiting;
      failing.delete(endpoint.id);
    } catch (error) {
      endpoint.waiting = null;
      // Said once per failing spell, not every few seconds.
      if (!failing.has(endpoint.id))
        log(
          `gateway: reading ${endpoint.id}'s /metrics failed (${messageOf(error)}); its queue is unknown until it answers`,
        );
      failing.add(endpoint.id);
    }
  };

  const scrapeOnce = async (): Promise<void> => {
    if (round) return round;
    round = Promise.allSettled(pool.replicaEndpoints().map(scrapeOne)).then(() => {
      round = null;
    });
    return round;
  };

  const timer = setInterval(() => void scrapeOnce(), intervalMs);
  timer.unref();
  return {
    scrapeOnce,
    stop: () => clearInterval(timer),
  };
}
