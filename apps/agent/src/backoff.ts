// Reconnect delays: exponential with full jitter (a random delay between zero and the ceiling),
// so a fleet that lost its control plane at once does not come back at once. The ceiling starts
// again after a session that worked, so each failover survived does not slow the next one.
import type { RandomFn } from "./random";

export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  random: RandomFn;
}

export const DEFAULT_BACKOFF = { baseMs: 500, capMs: 30_000 } as const;

export interface Backoff {
  /** The delay before the next attempt; each call raises the ceiling until the cap. */
  nextDelayMs(): number;
  /** Called after a session that worked. */
  reset(): void;
  readonly attempt: number;
}

export function createBackoff(options: BackoffOptions): Backoff {
  let attempt = 0;
  return {
    nextDelayMs() {
      const ceilingMs = backoffCeilingMs(attempt, options.baseMs, options.capMs);
      attempt++;
      return Math.floor(options.random() * ceilingMs);
    },
    reset() {
      attempt = 0;
    },
    get attempt() {
      return attempt;
    },
  };
}

/** base × 2^attempt, never above cap (and never overflowing for a node down for a week). */
export function backoffCeilingMs(attempt: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
}
