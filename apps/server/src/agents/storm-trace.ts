// While connections wait at the agent port's handshake gate (a reconnect storm), one log line a
// second says where the storm's time goes: how many TCP connections the server accepted, how many
// handshakes it started and finished, what was still in flight and waiting at the second's end, the
// longest wait a started handshake had, and how long the server's thread was held (event loop delay
// and garbage collection). An operator sees a storm drain second by second; a bench compares the
// server's counts with what its agents saw. Quiet when nothing waits: no timer, no monitor.
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

/** The gate's state read at each second's end. */
interface GateState {
  readonly queued: number;
  readonly handshaking: number;
}

/** What holds the server's thread: the event loop's longest delay and the GC pauses, per second. */
export interface ThreadWatch {
  start(): void;
  /** The longest event loop delay, and GC pauses (count, total and longest ms), since the last read. */
  read(): { delayMaxMs: number; gcPauses: number; gcMs: number; gcMaxMs: number };
  stop(): void;
}

export interface StormTraceOptions {
  gate: GateState;
  log(line: string): void;
  /** Calls `tick` every `ms` until stopped (a timer that does not keep the process alive). */
  every?(tick: () => void, ms: number): { stop(): void };
  thread?: ThreadWatch;
  nowMs?(): number;
}

const SECOND_MS = 1_000;

/** Counts one storm second at a time; a second is logged when any connection waited in it. */
export class StormTrace {
  private counts = { accepted: 0, started: 0, secured: 0, waitMaxMs: 0, queuedMax: 0 };
  /** While no storm is traced, when the counts began (they cover at most the last second). */
  private countsFromMs = Number.NEGATIVE_INFINITY;
  private timer: { stop(): void } | undefined;
  private seconds = 0;
  private readonly thread: ThreadWatch;

  constructor(private readonly options: StormTraceOptions) {
    this.thread = options.thread ?? nodeThreadWatch();
  }

  /** A TCP connection was accepted and given to the gate (call after the gate answered). */
  accepted(): void {
    this.freshen();
    this.counts.accepted += 1;
    this.noteQueue();
  }

  /** The gate started a handshake that had waited `waitedMs`. */
  started(waitedMs: number): void {
    this.freshen();
    this.counts.started += 1;
    this.counts.waitMaxMs = Math.max(this.counts.waitMaxMs, waitedMs);
  }

  /** A TLS handshake finished. */
  secured(): void {
    this.freshen();
    this.counts.secured += 1;
  }

  /** Stops the timer (the port is closing). */
  stop(): void {
    this.timer?.stop();
    this.timer = undefined;
    this.thread.stop();
  }

  /** Untraced, counts older than a second are dropped: a storm's first line covers its first second. */
  private freshen(): void {
    if (this.timer) return;
    const nowMs = (this.options.nowMs ?? performance.now.bind(performance))();
    if (nowMs - this.countsFromMs < SECOND_MS) return;
    this.countsFromMs = nowMs;
    this.counts = { accepted: 0, started: 0, secured: 0, waitMaxMs: 0, queuedMax: 0 };
  }

  private noteQueue(): void {
    const queued = this.options.gate.queued;
    this.counts.queuedMax = Math.max(this.counts.queuedMax, queued);
    if (queued === 0 || this.timer) return;
    this.seconds = 0;
    this.thread.start();
    const every =
      this.options.every ??
      ((tick, ms) => {
        const interval = setInterval(tick, ms).unref();
        return { stop: () => clearInterval(interval) };
      });
    this.timer = every(() => this.tick(), SECOND_MS);
  }

  private tick(): void {
    const { gate } = this.options;
    const counts = this.counts;
    const thread = this.thread.read();
    this.seconds += 1;
    this.options.log(
      `agent port: storm second ${this.seconds}: ${counts.accepted} connections accepted, ` +
        `${counts.started} handshakes started (longest wait ${Math.round(counts.waitMaxMs)} ms), ` +
        `${counts.secured} secured; ${gate.handshaking} in flight and ${gate.queued} waiting ` +
        `(most ${Math.max(counts.queuedMax, gate.queued)}); thread held up to ` +
        `${Math.round(thread.delayMaxMs)} ms, GC ${thread.gcPauses} pauses ` +
        `${Math.round(thread.gcMs)} ms (longest ${Math.round(thread.gcMaxMs)} ms)`,
    );
    const wasQuiet = counts.queuedMax === 0 && gate.queued === 0;
    this.counts = { accepted: 0, started: 0, secured: 0, waitMaxMs: 0, queuedMax: gate.queued };
    if (wasQuiet) this.stop();
  }
}

/** Event loop delay (20 ms resolution) and GC pauses, watched only while a storm is traced. */
function nodeThreadWatch(): ThreadWatch {
  const delay = monitorEventLoopDelay({ resolution: 20 });
  const gc = { pauses: 0, ms: 0, maxMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.pauses += 1;
      gc.ms += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  });
  return {
    start: () => {
      delay.reset();
      delay.enable();
      observer.observe({ entryTypes: ["gc"] });
    },
    read: () => {
      const read = {
        delayMaxMs: delay.count > 0 ? delay.max / 1e6 : 0,
        gcPauses: gc.pauses,
        gcMs: gc.ms,
        gcMaxMs: gc.maxMs,
      };
      delay.reset();
      Object.assign(gc, { pauses: 0, ms: 0, maxMs: 0 });
      return read;
    },
    stop: () => {
      delay.disable();
      observer.disconnect();
    },
  };
}
