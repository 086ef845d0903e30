// The simulated engine's load: a fixed number of sequences generate at once and the rest wait, and
// every admitted request holds KV-cache tokens (prompt plus what it has generated). This is what
// /metrics reports, so routing and autoscaling see real numbers move.

export interface Slot {
  addGeneratedTokens(count: number): void;
  release(outcome: "stop" | "length" | "abort" | "error"): void;
}

export class EngineLoad {
  running = 0;
  kvTokensUsed = 0;
  promptTokensTotal = 0;
  generationTokensTotal = 0;
  readonly finished = new Map<string, number>();
  private readonly queue: Array<() => void> = [];

  constructor(
    readonly maxNumSeqs: number,
    readonly kvCacheTokens: number,
  ) {}

  get waiting(): number {
    return this.queue.length;
  }

  get kvCacheUsageRatio(): number {
    return Math.min(1, this.kvTokensUsed / this.kvCacheTokens);
  }

  /** Waits for a free sequence; rejects if the client goes away while it waits. */
  async admit(promptTokens: number, signal: AbortSignal): Promise<Slot> {
    if (this.running >= this.maxNumSeqs) await this.waitTurn(signal);
    this.running += 1;
    this.kvTokensUsed += promptTokens;
    this.promptTokensTotal += promptTokens;
    let held = promptTokens;
    let isReleased = false;
    return {
      addGeneratedTokens: (count) => {
        held += count;
        this.kvTokensUsed += count;
        this.generationTokensTotal += count;
      },
      release: (outcome) => {
        if (isReleased) return;
        isReleased = true;
        this.running -= 1;
        this.kvTokensUsed -= held;
        // vLLM counts only requests that finished, not ones cut short.
        if (outcome === "stop" || outcome === "length")
          this.finished.set(outcome, (this.finished.get(outcome) ?? 0) + 1);
        this.queue.shift()?.();
      },
    };
  }

  private waitTurn(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.queue.indexOf(wake);
        if (index !== -1) this.queue.splice(index, 1);
        reject(new Error("client left while waiting"));
      };
      const wake = (): void => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      if (signal.aborted) return onAbort();
      this.queue.push(wake);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}
