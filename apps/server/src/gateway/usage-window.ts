// The time window of a usage report or list: `until` defaults to now and `since` to a day before
// it; a window that ends before it starts is refused with both times named.
import { ServiceError } from "@llmgw/api";

const DEFAULT_RANGE_MS = 24 * 3_600_000;

export function usageWindow(
  input: { since?: string; until?: string },
  nowMs: number,
): { since: Date; until: Date } {
  const until = input.until ? new Date(input.until) : new Date(nowMs);
  const since = input.since ? new Date(input.since) : new Date(until.getTime() - DEFAULT_RANGE_MS);
  if (since >= until)
    throw new ServiceError(
      "invalid",
      `since (${since.toISOString()}) must be before until (${until.toISOString()})`,
      {
        code: "usage.range_backwards",
        params: { since: since.toISOString(), until: until.toISOString() },
      },
    );
  return { since, until };
}
