// Reads each ready replica's /metrics every few seconds, off the request path, for the number of
// requests waiting in the engine's own queue. A scrape that fails, times out or finds no such
// series leaves the endpoint's queue unknown (null), never zero: an engine that cannot be measured
// must not look idle. External endpoints are never scraped. Each reading (waiting and running) also
// goes to the control plane's `LoadSink`, which the autoscaler sums per model.
import { messageOf } from "@llmgw/domain";
import {
  deriveReplicaKey,
  getEngineAdapter,
  isEngineName,
  parseEngineMetrics,
} from "@llmgw/engines";
import { setImmediate as nextTurn } from "node:timers/promises";
import { request, type Dispatcher } from "undici";
import type { LoadSink } from "../reconcile/replica-load";
import type { Endpoint, EndpointPool } from "./endpoints";

const SCRAPE_TIMEOUT_MS = 1_500;
/** Scrapes started in one turn of the event loop: about 50 µs each, so a few ms at most. */
const SCRAPES_PER_TURN = 50;
const BODY_MAX_BYTES = 4 * 1024 * 1024;

const finiteOrNull = (value: number | undefined): number | null =>
  value === undefined || !Number.isFinite(value) ? null : value;

export interface LoadScraper {
  /** One round over every ready replica now (the timer calls it; tests may too). */
  scrapeOnce(): Promise<void>;
  stop(): void;
}

export interface LoadScraperOptions {
  pool: EndpointPool;
  agent: Dispatcher;
  /** The secret replica keys are derived from; never logged. */
  replicaSecret: Uint8Array;
  intervalMs: number;
  /** Where each replica's reading goes for the autoscaler. */
  sink: LoadSink;
  nowMs(): number;
  log(line: string): void;
}

export function startLoadScraper(options: LoadScraperOptions): LoadScraper {
  const { pool, agent, replicaSecret, intervalMs, sink, nowMs, log } = options;
  let round: Promise<void> | null = null;
  const failing = new Set<string>();

  const scrapeOne = async (endpoint: Endpoint): Promise<void> => {
    // ComfyUI has no /metrics and its gate lets through only what the router asks: never scraped.
    const names =
      endpoint.engine !== "comfyui" && isEngineName(endpoint.engine)
        ? getEngineAdapter(endpoint.engine).metricNames
        : undefined;
    if (!names) {
      endpoint.waiting = null;
      sink.record(endpoint.id, null, nowMs());
      return;
    }
    try {
      const answer = await request(`${endpoint.baseUrl}/metrics`, {
        dispatcher: agent,
        // The key the gateway's requests send too, derived once per endpoint (attempts.ts).
        headers: {
          authorization: `Bearer ${(endpoint.replicaKey ??= deriveReplicaKey(replicaSecret, endpoint.id))}`,
        },
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
      const load = parseEngineMetrics(text, names);
      const waiting = finiteOrNull(load.waitingRequests);
      endpoint.waiting = waiting;
      sink.record(endpoint.id, { waiting, running: finiteOrNull(load.runningRequests) }, nowMs());
      failing.delete(endpoint.id);
    } catch (error) {
      endpoint.waiting = null;
      sink.record(endpoint.id, null, nowMs());
      // Said once per failing spell, not every few seconds.
      if (!failing.has(endpoint.id))
        log(
          `gateway: reading ${endpoint.id}'s /metrics failed (${messageOf(error)}); its queue is unknown until it answers`,
        );
      failing.add(endpoint.id);
    }
  };

  // Every scrape is in flight at once (so dead replicas time out together, not one after
  // another), but they are started a few at a time with a turn of the event loop between: starting
  // thousands in one go held the loop for 100 ms and more, and /v1 requests waited behind it.
  const startAll = async (endpoints: readonly Endpoint[]): Promise<void> => {
    const started: Promise<void>[] = [];
    for (let from = 0; from < endpoints.length; from += SCRAPES_PER_TURN) {
      if (from > 0) await nextTurn();
      for (const endpoint of endpoints.slice(from, from + SCRAPES_PER_TURN))
        started.push(scrapeOne(endpoint));
    }
    await Promise.allSettled(started);
  };

  const scrapeOnce = async (): Promise<void> => {
    if (round) return round;
    round = startAll(pool.replicaEndpoints()).finally(() => {
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
