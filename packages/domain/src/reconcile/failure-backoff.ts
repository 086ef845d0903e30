// How long a model waits after a failed start before a replacement is placed: the base doubled
// for each failure in a row, capped, and spread by a jitter fixed per model and count (so a
// pass and the next agree on the moment, and models that failed together do not all restart in
// the same second). Parking after `failuresToPark` failures in a row is unchanged.
import type { FailureBackoffPolicy, ModelHealth } from "./types";

export const DEFAULT_FAILURE_BACKOFF: FailureBackoffPolicy = { baseMs: 5_000, capMs: 300_000 };

/** The jitter factor: ±20 %, from an FNV-1a hash of the model and the count. */
function jitterFactor(model: string, failures: number): number {
  let hash = 0x811c9dc5;
  for (const char of `${model}#${failures}`) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return 0.8 + 0.4 * (hash / 0x1_0000_0000);
}

/** The wait after the `failures`-th failure in a row (1 or more). */
export function failureBackoffMs(
  model: string,
  failures: number,
  policy: FailureBackoffPolicy = DEFAULT_FAILURE_BACKOFF,
): number {
  if (policy.baseMs <= 0 || failures <= 0) return 0;
  const exponential = policy.baseMs * 2 ** Math.min(failures - 1, 30);
  return Math.round(Math.min(policy.capMs, exponential) * jitterFactor(model, failures));
}

/** When a replacement may be placed; null when nothing holds it back (no failures on record). */
export function replaceNotBeforeMs(
  health: ModelHealth,
  policy: FailureBackoffPolicy = DEFAULT_FAILURE_BACKOFF,
): number | null {
  const at = health.lastFailureAtMs ?? null;
  if (health.consecutiveFailures <= 0 || at === null) return null;
  return at + failureBackoffMs(health.name, health.consecutiveFailures, policy);
}
