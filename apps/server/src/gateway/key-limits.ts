// Per-key admission: requests and tokens per minute and concurrent requests, counted in this
// process. Over a limit is a 429 with Retry-After, never a 5xx.
import type { ApiKeyRow } from "@llmgw/db";
import { MinuteWindow } from "@llmgw/domain";
import { GatewayError } from "./errors";

interface KeyCounters {
  requests: MinuteWindow;
  tokens: MinuteWindow;
  inFlight: number;
}

export class KeyLimits {
  private readonly counters = new Map<string, KeyCounters>();

  /** Admits one request or throws a 429; the caller must call `release` when it ends. */
  admit(key: ApiKeyRow, nowMs: number): void {
    const c = this.of(key.id);
    if (key.concurrentMax !== null && c.inFlight >= key.concurrentMax) {
      throw limited(
        `key ${key.prefix} already has ${c.inFlight} requests in flight (limit ${key.concurrentMax})`,
        "concurrency_limit_exceeded",
        1,
      );
    }
    if (key.requestsPerMinute !== null && c.requests.total(nowMs) >= key.requestsPerMinute) {
      const wait = c.requests.retryAfterSeconds(nowMs, key.requestsPerMinute);
      throw limited(
        `key ${key.prefix} is over its limit of ${key.requestsPerMinute} requests per minute`,
        "rate_limit_exceeded",
        wait,
      );
    }
    if (key.tokensPerMinute !== null && c.tokens.total(nowMs) >= key.tokensPerMinute) {
      const wait = c.tokens.retryAfterSeconds(nowMs, key.tokensPerMinute);
      throw limited(
        `key ${key.prefix} is over its limit of ${key.tokensPerMinute} tokens per minute`,
        "token_limit_exceeded",
        wait,
      );
    }
    c.requests.add(nowMs, 1);
    c.inFlight += 1;
  }

  release(keyId: string, tokensUsed: number, nowMs: number): void {
    const c = this.of(keyId);
    c.inFlight = Math.max(0, c.inFlight - 1);
    if (tokensUsed > 0) c.tokens.add(nowMs, tokensUsed);
  }

  private of(keyId: string): KeyCounters {
    let c = this.counters.get(keyId);
    if (!c) {
      c = { requests: new MinuteWindow(), tokens: new MinuteWindow(), inFlight: 0 };
      this.counters.set(keyId, c);
    }
    return c;
  }
}

function limited(message: string, code: string, retryAfterSeconds: number): GatewayError {
  const seconds = Math.max(1, retryAfterSeconds);
  return new GatewayError(429, `${message}; retry in ${seconds} s`, "rate_limit_error", code, {
    "retry-after": String(seconds),
  });
}
