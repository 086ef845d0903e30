// A circuit breaker per endpoint. Consecutive failures (5xx answers and connection errors; a 4xx
// is the client's fault and never counts) open it; after a cool-down one probe is let through, and
// its outcome closes or reopens the breaker. Pure: every call takes the time.

export type BreakerStateName = "closed" | "open" | "half-open";

export interface BreakerPolicy {
  /** Consecutive failures that open the breaker. */
  failuresToOpen: number;
  /** How long an open breaker refuses before it lets one probe through. */
  openForMs: number;
}

export const DEFAULT_BREAKER_POLICY: BreakerPolicy = { failuresToOpen: 5, openForMs: 30_000 };

export class Breaker {
  private state: BreakerStateName = "closed";
  private consecutiveFailures = 0;
  private openedAtMs = 0;
  private isProbeInFlight = false;

  constructor(private readonly policy: BreakerPolicy = DEFAULT_BREAKER_POLICY) {}

  stateAt(nowMs: number): BreakerStateName {
    if (this.state === "open" && nowMs - this.openedAtMs >= this.policy.openForMs)
      return "half-open";
    return this.state;
  }

  /** Whether a request may go now; a half-open breaker admits exactly one probe at a time. */
  canTry(nowMs: number): boolean {
    const state = this.stateAt(nowMs);
    if (state === "closed") return true;
    if (state === "open") return false;
    return !this.isProbeInFlight;
  }

  /** Call just before sending; marks the probe when the breaker is half-open. */
  onAttempt(nowMs: number): void {
    if (this.stateAt(nowMs) === "half-open") {
      this.state = "half-open";
      this.isProbeInFlight = true;
    }
  }

  onSuccess(): void {
    this.state = "closed";
    this.consecutiveFailures = 0;
    this.isProbeInFlight = false;
  }

  /**
   * The client left before the endpoint answered: that says nothing about the endpoint, so the
   * count stays as it was; a half-open breaker gets its probe slot back for the next request.
   */
  onAbandoned(): void {
    this.isProbeInFlight = false;
  }

  onFailure(nowMs: number): void {
    this.consecutiveFailures += 1;
    const wasProbe = this.state === "half-open";
    this.isProbeInFlight = false;
    if (wasProbe || this.consecutiveFailures >= this.policy.failuresToOpen) {
      this.state = "open";
      this.openedAtMs = nowMs;
    }
  }

  /**
   * Opens at once, whatever the count: an answer that says "not now" (a provider's 429) or "never
   * with this key" (a 401) for every request to come, so waiting for five of them helps nobody.
   */
  trip(nowMs: number): void {
    this.consecutiveFailures += 1;
    this.isProbeInFlight = false;
    this.state = "open";
    this.openedAtMs = nowMs;
  }

  /** Milliseconds until an open breaker lets a probe through (0 when it would now). */
  msUntilProbe(nowMs: number): number {
    if (this.state !== "open") return 0;
    return Math.max(0, this.openedAtMs + this.policy.openForMs - nowMs);
  }

  failures(): number {
    return this.consecutiveFailures;
  }
}

/** Whether an upstream answer counts against the endpoint's health. */
export function isEndpointFailure(status: number | "connection-error"): boolean {
  return status === "connection-error" || status >= 500;
}
