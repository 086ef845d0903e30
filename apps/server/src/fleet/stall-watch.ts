// The server's own stalls are not its nodes' silence. While this process cannot run (a long
// synchronous task, a machine that starves it of CPU), heartbeats keep arriving and wait unread in
// their sockets; after the stall, timers run before those sockets are read, so a liveness check
// made then finds every node silent for as long as the server was. Past the lost threshold that
// rebuilt every replica of the fleet elsewhere at once (bench:console at 2,000 nodes on a loaded
// machine: 28,224 replicas in the book for 4,000 wanted), and the rebuilds loaded the server further.
// A short timer notes how late it runs; the lateness beyond a tolerance is excused, and liveness
// counts a node's silence only while the server was able to listen. The excused time is exported
// (llmgw_server_stalled_seconds_total): while it grows, a node that really died is noticed late.
import { Counter, type Registry } from "prom-client";

/** How often the watch looks at the clock while nothing else asks it. */
const TICK_MS = 100;
/** A gap between looks up to this long is ordinary scheduling, not a stall. */
const TOLERANCE_MS = 500;

export interface StallWatch {
  /** Looks at the clock; returns the stall time excused since the server started (ms). */
  attend(): number;
  stop(): void;
}

/** Never excuses anything: for tests and tools that drive the registry with their own clock. */
export const NO_STALL_WATCH: StallWatch = { attend: () => 0, stop: () => undefined };

/**
 * Excuses every gap between two looks at the clock longer than the tolerance, less the
 * tolerance. Looks every TICK_MS, and whenever liveness is about to be judged or a node is heard
 * (`attend`), so a stall is counted before anything reads the clock after it.
 */
export function startStallWatch(nowMs: () => number): StallWatch {
  let lastMs = nowMs();
  let excusedMs = 0;
  const attend = (): number => {
    const now = nowMs();
    const gapMs = now - lastMs;
    if (gapMs > TOLERANCE_MS) excusedMs += gapMs - TOLERANCE_MS;
    // A clock stepped back is not a stall either way.
    lastMs = Math.max(lastMs, now);
    return excusedMs;
  };
  const timer = setInterval(attend, TICK_MS);
  timer.unref();
  return { attend, stop: () => clearInterval(timer) };
}

/** Exports the stall time excused so far, read from the watch when scraped. */
export function registerStallMetrics(registry: Registry, watch: StallWatch): void {
  new Counter({
    name: "llmgw_server_stalled_seconds_total",
    help: "Time this control plane could not run (gaps over 500 ms between its clock checks), excused from its nodes' silence while it lasted.",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(watch.attend() / 1_000);
    },
  });
}
