// `llmgw ctl logs --follow`: the node answers with its last lines each time, so following means
// finding where the previous answer ends inside the next one and printing only what comes after.

/** Lines in `next` that `previous` did not have, by the longest overlap of previous's end with next's start. */
export function newLines(previous: readonly string[], next: readonly string[]): string[] {
  for (let overlap = Math.min(previous.length, next.length); overlap > 0; overlap -= 1) {
    if (sameLines(previous, previous.length - overlap, next, overlap)) return next.slice(overlap);
  }
  // No overlap at all: more lines arrived between two polls than one answer holds.
  return [...next];
}

function sameLines(
  previous: readonly string[],
  from: number,
  next: readonly string[],
  count: number,
): boolean {
  for (let index = 0; index < count; index += 1) {
    if (previous[from + index] !== next[index]) return false;
  }
  return true;
}

export interface FollowDeps {
  fetchLines(): Promise<string[]>;
  write(lines: string[]): void;
  sleep(ms: number): Promise<void>;
  /** Polling stops when this says so (Ctrl-C ends the process in real use). */
  isStopped(): boolean;
  intervalMs: number;
}

export async function followLogs(initial: string[], deps: FollowDeps): Promise<void> {
  let previous = initial;
  while (!deps.isStopped()) {
    await deps.sleep(deps.intervalMs);
    if (deps.isStopped()) return;
    const next = await deps.fetchLines();
    const fresh = newLines(previous, next);
    if (fresh.length > 0) deps.write(fresh);
    previous = next;
  }
}
