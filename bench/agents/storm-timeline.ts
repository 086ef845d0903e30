// A reconnect storm second by second, from both ends: what the harness's agents saw (dials begun,
// TCP connected, TLS secured, registered, failed; how many waited for TLS at the second's end; how
// long the harness's own event loop was held; the agent port's accept queue, sampled) beside the server's "storm second" lines (what it
// accepted, started, secured, queued, and how long its thread was held). Together they say whether
// a dial's time went before the server's accept, in the gate's queue, in the handshake, or in the
// harness itself. Each second also says how long the server's main thread waited in the run queue
// for a core, and the harness's own CPU: a server starved by the machine waits there, one held by
// its own work does not.

export type DialPhase = "dial" | "tcp" | "tls" | "registered" | "failed";

interface Second {
  dial: number;
  tcp: number;
  tls: number;
  registered: number;
  failed: number;
  /** Agents past TCP connected and not yet TLS secured, at the second's end. */
  awaitingTls: number;
  loopMaxMs: number;
  /** The agent port's accept queue sampled in the second: the longest and the last (AcceptQueue). */
  acceptQueueMax: number | undefined;
  acceptQueueLast: number | undefined;
  /** The server process's CPU (all its threads) in the second, from /proc; undefined when not read. */
  serverCpuMs: number | undefined;
  /** How long the server's main thread waited in the run queue for a core in the second. */
  serverWaitMs: number | undefined;
  /** The harness process's own CPU (all its threads) in the second. */
  harnessCpuMs: number | undefined;
}

const LAG_TICK_MS = 50;
const SERVER_LINE = /^(\S+) server agent port: (storm second .*)$/;

export class StormTimeline {
  private readonly seconds: Second[] = [];
  private awaitingTls = 0;
  private lastTickMs: number;
  private readonly lagTimer: NodeJS.Timeout;

  constructor(private readonly startMs = Date.now()) {
    this.lastTickMs = performance.now();
    this.lagTimer = setInterval(() => {
      const nowMs = performance.now();
      const second = this.current();
      second.loopMaxMs = Math.max(second.loopMaxMs, nowMs - this.lastTickMs - LAG_TICK_MS);
      this.lastTickMs = nowMs;
    }, LAG_TICK_MS);
  }

  /** One agent's dial reached `phase`; `afterTcp` says whether a failed dial had connected. */
  note(phase: DialPhase, afterTcp = false): void {
    const second = this.current();
    second[phase] += 1;
    if (phase === "tcp") this.awaitingTls += 1;
    if (phase === "tls" || (phase === "failed" && afterTcp)) this.awaitingTls -= 1;
    second.awaitingTls = this.awaitingTls;
  }

  /** A sample of the server's accept queue (connections the kernel completed, not yet accepted). */
  noteAcceptQueue(queued: number): void {
    const second = this.current();
    second.acceptQueueMax = Math.max(second.acceptQueueMax ?? 0, queued);
    second.acceptQueueLast = queued;
  }

  /**
   * CPU the server process spent since the previous call, how long its main thread waited for a
   * core meanwhile, and the harness's own CPU (each summed into the current second).
   */
  noteCpu(sample: { serverCpuMs?: number; serverWaitMs?: number; harnessCpuMs: number }): void {
    const second = this.current();
    if (sample.serverCpuMs !== undefined)
      second.serverCpuMs = (second.serverCpuMs ?? 0) + sample.serverCpuMs;
    if (sample.serverWaitMs !== undefined)
      second.serverWaitMs = (second.serverWaitMs ?? 0) + sample.serverWaitMs;
    second.harnessCpuMs = (second.harnessCpuMs ?? 0) + sample.harnessCpuMs;
  }

  stop(): void {
    clearInterval(this.lagTimer);
  }

  /**
   * One line per harness second, and the server's storm lines found in `serverOutput` (its
   * timestamped log) placed by the time they were written, in time order.
   */
  lines(serverOutput = ""): string[] {
    const timed: Array<[number, string]> = this.seconds.map((second, at) => [
      (at + 1) * 1000,
      `+${at + 1} s harness: ${second.dial} dials, ${second.tcp} TCP connected, ${second.tls} TLS ` +
        `secured, ${second.registered} registered, ${second.failed} failed; ${second.awaitingTls} ` +
        `awaiting TLS; its loop held up to ${Math.max(0, second.loopMaxMs).toFixed(0)} ms; ` +
        (second.acceptQueueMax === undefined
          ? `accept queue not sampled`
          : `accept queue up to ${second.acceptQueueMax} (${second.acceptQueueLast ?? 0} at the last sample)`) +
        (second.serverCpuMs === undefined
          ? ""
          : `; server CPU ${second.serverCpuMs.toFixed(0)} ms`) +
        (second.serverWaitMs === undefined
          ? ""
          : ` (its thread waited ${second.serverWaitMs.toFixed(0)} ms for a core)`) +
        (second.harnessCpuMs === undefined
          ? ""
          : `; harness CPU ${second.harnessCpuMs.toFixed(0)} ms`),
    ]);
    for (const line of serverOutput.split("\n")) {
      const match = SERVER_LINE.exec(line);
      const atMs = match ? Date.parse(match[1] ?? "") - this.startMs : Number.NaN;
      if (match && atMs >= 0 && atMs <= this.seconds.length * 1000 + 2000)
        timed.push([atMs, `+${(atMs / 1000).toFixed(1)} s server: ${match[2] ?? ""}`]);
    }
    return timed.sort((a, b) => a[0] - b[0]).map(([, line]) => line);
  }

  private current(): Second {
    const at = Math.max(0, Math.floor((Date.now() - this.startMs) / 1000));
    for (let next = this.seconds.length; next <= at; next += 1)
      this.seconds.push({
        dial: 0,
        tcp: 0,
        tls: 0,
        registered: 0,
        failed: 0,
        awaitingTls: this.awaitingTls,
        loopMaxMs: 0,
        acceptQueueMax: undefined,
        acceptQueueLast: undefined,
        serverCpuMs: undefined,
        serverWaitMs: undefined,
        harnessCpuMs: undefined,
      });
    return this.seconds[at] as Second;
  }
}
