// Load for the fault tests (R2, R3, R4): clients that stream chat completions through /v1 in a loop
// while a fault is injected, each keeping its own count of what succeeded and how the rest failed,
// and a sampler that polls something on an interval and keeps every answer.
import { messageOf } from "@llmgw/domain";

/** How one streamed request ended. */
export type StreamEnd =
  | { kind: "ok" }
  | { kind: "refused"; status: number; body: string }
  | { kind: "cut"; errorCode: string }
  | { kind: "broken"; why: string };

interface LoadTally {
  ok: number;
  /** The longest any one request took, from sending to its last byte. */
  slowestMs: number;
  /** Every request that did not end with [DONE] and no error event, with why. */
  failures: Array<Exclude<StreamEnd, { kind: "ok" }> & { client: number; atMs: number }>;
  /** Every request with the id it was sent under and how it ended, when `requestIdPrefix` is set. */
  requests: Array<{ requestId: string; end: StreamEnd }>;
}

export interface LoadOptions {
  /** `http://HOST:PORT/v1` per client, taken in turn (two control planes: both bases). */
  bases: readonly string[];
  key: string;
  model: string;
  clients: number;
  /** Tokens each answer streams (the sim engine's pace sets how long a stream lasts). */
  maxTokens?: number;
  /**
   * Sends each request with `X-Request-Id: PREFIX-CLIENT-N` and keeps every one in the tally, so
   * what the client saw can be matched with what the server recorded.
   */
  requestIdPrefix?: string;
}

export interface RunningLoad {
  /** Stops starting requests, waits for those under way, and returns the tally. */
  stop(): Promise<LoadTally>;
  /** Requests that ended so far, ok or not. */
  ended(): number;
}

/** Reads an SSE answer to its end: whether [DONE] came, and the code of any error event. */
async function readEvents(res: Response): Promise<StreamEnd> {
  const text = await res.text();
  let done = false;
  for (const block of text.split("\n\n")) {
    const event = block.trim();
    if (!event.startsWith("data: ")) continue;
    const data = event.slice("data: ".length);
    if (data === "[DONE]") done = true;
    else {
      const parsed = JSON.parse(data) as { error?: { code?: string } };
      if (parsed.error) return { kind: "cut", errorCode: parsed.error.code ?? "unknown" };
    }
  }
  return done ? { kind: "ok" } : { kind: "broken", why: "the stream ended without [DONE]" };
}

async function streamOnce(
  base: string,
  key: string,
  body: { model: string; maxTokens: number; content: string },
  requestId: string | undefined,
): Promise<StreamEnd> {
  try {
    const res = await fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        ...(requestId ? { "x-request-id": requestId } : {}),
      },
      body: JSON.stringify({
        model: body.model,
        stream: true,
        max_tokens: body.maxTokens,
        messages: [{ role: "user", content: body.content }],
      }),
    });
    if (res.status !== 200) return { kind: "refused", status: res.status, body: await res.text() };
    return await readEvents(res);
  } catch (error) {
    return { kind: "broken", why: messageOf(error) };
  }
}

/** Starts `clients` loops, each streaming one request after another until stopped. */
export function startLoad(options: LoadOptions): RunningLoad {
  const tally: LoadTally = { ok: 0, slowestMs: 0, failures: [], requests: [] };
  let running = true;
  let ended = 0;
  const loop = async (client: number) => {
    const base = options.bases[client % options.bases.length] ?? "";
    for (let i = 0; running; i++) {
      const startedMs = Date.now();
      const requestId = options.requestIdPrefix && `${options.requestIdPrefix}-${client}-${i}`;
      const body = {
        model: options.model,
        maxTokens: options.maxTokens ?? 8,
        content: `client ${client} request ${i}`,
      };
      const end = await streamOnce(base, options.key, body, requestId);
      ended += 1;
      if (requestId) tally.requests.push({ requestId, end });
      tally.slowestMs = Math.max(tally.slowestMs, Date.now() - startedMs);
      if (end.kind === "ok") tally.ok += 1;
      else tally.failures.push({ ...end, client, atMs: Date.now() });
    }
  };
  const loops = Array.from({ length: options.clients }, (_, client) => loop(client));
  return {
    ended: () => ended,
    async stop() {
      running = false;
      await Promise.all(loops);
      return tally;
    },
  };
}

/** Polls `sample` every `everyMs` until stopped; keeps every answer (a failed poll is skipped). */
export function startSampler<T>(
  sample: () => Promise<T>,
  everyMs: number,
): { stop(): Promise<T[]> } {
  const samples: T[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        samples.push(await sample());
      } catch {
        // The thing sampled may be briefly away (that is the fault under test); the next poll counts.
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/** `llmgw_gateway_endpoint_breaker_open` for one model from a /metrics text: open breakers by endpoint. */
export function openBreakers(metricsText: string, model: string): string[] {
  const pattern = new RegExp(
    `^llmgw_gateway_endpoint_breaker_open\\{model="${model}",([^}]*)\\} (\\d+)$`,
    "gm",
  );
  return [...metricsText.matchAll(pattern)].flatMap((m) => (m[2] === "0" ? [] : [m[1] ?? ""]));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
