import { inspect } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";

export interface WaitForOptions {
  /** What is awaited, in words; it names the timeout error, e.g. "server /ready". */
  what: string;
  timeoutMs?: number;
  intervalMs?: number;
}

type Truthy<T> = Exclude<T, false | 0 | "" | null | undefined>;

function describeLast(lastError: unknown, lastValue: unknown, attempts: number): string {
  if (attempts === 0) return "fn never completed";
  if (lastError !== undefined) {
    return `last error: ${lastError instanceof Error ? lastError.message : inspect(lastError)}`;
  }
  return `last value: ${inspect(lastValue, { depth: 2, breakLength: Infinity })}`;
}

/**
 * Polls `fn` until it returns a truthy value and returns that value. Errors thrown by `fn` count as
 * "not yet". A call that hangs is abandoned at the deadline, so the wait never exceeds `timeoutMs`
 * by more than one interval.
 */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  { what, timeoutMs = 10_000, intervalMs = 100 }: WaitForOptions,
): Promise<Truthy<T>> {
  const deadlineMs = Date.now() + timeoutMs;
  const timedOut = Symbol("timed out");
  let lastError: unknown;
  let lastValue: unknown;
  let attempts = 0;
  while (Date.now() < deadlineMs) {
    const remainingMs = Math.max(0, deadlineMs - Date.now());
    const guard = new AbortController();
    try {
      const value = await Promise.race([
        Promise.resolve().then(fn),
        sleep(remainingMs, timedOut, { signal: guard.signal }),
      ]);
      if (value === timedOut) break;
      attempts += 1;
      lastError = undefined;
      lastValue = value;
      if (value) return value as Truthy<T>;
    } catch (error) {
      attempts += 1;
      lastError = error;
    } finally {
      guard.abort();
    }
    await sleep(Math.min(intervalMs, Math.max(0, deadlineMs - Date.now())));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}; ${describeLast(lastError, lastValue, attempts)}`,
    { cause: lastError },
  );
}
