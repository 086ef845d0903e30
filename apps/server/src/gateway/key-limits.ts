// Per-key admission: requests and tokens per minute and concurrent requests, counted in this
// process. Over a limit is a 429 with Retry-After, never a 5xx. With several control planes each
// admits its share of a limit (the limit over the live control planes, rounded up), so together
// they never admit much more than the limit, and a key whose clients use one control plane gets
// that control plane's share: split, not shared, so no request waits on the store to be counted.
// A key's counters are kept only while they hold something: once a minute, those of keys with no
// request in flight and nothing counted in the last minute are dropped (they would count nothing),
// so 10,000 keys used once do not keep 10,000 pairs of windows.
import type { ApiKeyRow } from "@llmgw/db";
import { MinuteWindow } from "@llmgw/domain";
import { GatewayError } from "./errors";

/** How often idle keys' counters are dropped. */
export const KEY_LIMITS_SWEEP_MS = 60_000;

interface KeyCounters {
  requests: MinuteWindow;
  tokens: MinuteWindow;
  inFlight: number;
}

export class KeyLimits {
  private readonly counters = new Map<string, KeyCounters>();
  private sweptAtMs = 0;

  /** `controlPlanes`: how many control planes share each limit now (at least 1). */
  constructor(private readonly controlPlanes: () => number = () => 1) {}

  /** Admits one request or throws a 429; the caller must call `release` when it ends. */
  admit(key: ApiKeyRow, nowMs: number): void {
    this.sweep(nowMs);
    const c = this.of(key.id);
    const planes = Math.max(1, Math.floor(this.controlPlanes()));
    const concurrentMax = shareOf(key.concurrentMax, planes);
    if (concurrentMax !== null && c.inFlight >= concurrentMax) {
      throw limited(
        `key ${key.prefix} already has ${c.inFlight} requests in flight (limit ${concurrentMax}${sharedFrom(key.concurrentMax ?? 0, planes)})`,
        "concurrency_limit_exceeded",
        1,
      );
    }
    const requestsMax = shareOf(key.requestsPerMinute, planes);
    if (requestsMax !== null && c.requests.total(nowMs) >= requestsMax) {
      const wait = c.requests.retryAfterSeconds(nowMs, requestsMax);
      throw limited(
        `key ${key.prefix} is over its limit of ${requestsMax} requests per minute${sharedFrom(key.requestsPerMinute ?? 0, planes)}`,
        "rate_limit_exceeded",
        wait,
      );
    }
    const tokensMax = shareOf(key.tokensPerMinute, planes);
    if (tokensMax !== null && c.tokens.total(nowMs) >= tokensMax) {
      const wait = c.tokens.retryAfterSeconds(nowMs, tokensMax);
      throw limited(
        `key ${key.prefix} is over its limit of ${tokensMax} tokens per minute${sharedFrom(key.tokensPerMinute ?? 0, planes)}`,
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

  /** How many keys have counters now. */
  get size(): number {
    return this.counters.size;
  }

  /** Drops the counters of keys with nothing in flight and nothing counted in the last minute. */
  private sweep(nowMs: number): void {
    if (nowMs - this.sweptAtMs < KEY_LIMITS_SWEEP_MS) return;
    this.sweptAtMs = nowMs;
    for (const [keyId, c] of this.counters) {
      if (c.inFlight === 0 && c.requests.total(nowMs) === 0 && c.tokens.total(nowMs) === 0)
        this.counters.delete(keyId);
    }
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

// Module functions, not closures made in `admit`: it runs on every request.
/** This control plane's share of a limit (null: no limit). */
function shareOf(limit: number | null, planes: number): number | null {
  return limit === null ? null : Math.ceil(limit / planes);
}

/** What a refusal adds when the limit is shared. */
function sharedFrom(limit: number, planes: number): string {
  return planes === 1 ? "" : ` (this control plane's share of ${limit})`;
}

function limited(message: string, code: string, retryAfterSeconds: number): GatewayError {
  const seconds = Math.max(1, retryAfterSeconds);
  return new GatewayError(429, `${message}; retry in ${seconds} s`, "rate_limit_error", code, {
    "retry-after": String(seconds),
  });
}
