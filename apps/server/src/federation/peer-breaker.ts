// Whether a peer takes requests: its /ready checks and the requests sent to it both feed it. A
// peer that failed FAILURES_TO_OPEN times running is taken out of routing, and only a /ready
// check that passes brings it back, so no client request is spent finding out that it is still
// down (its models answer 503 at once meanwhile).
export const FAILURES_TO_OPEN = 2;

export class PeerBreaker {
  private failuresRunning = 0;
  private isOpenNow = false;

  get isOpen(): boolean {
    return this.isOpenNow;
  }

  /** A failed /ready check: a peer that does not answer its own readiness is down at once. */
  checkFailed(): void {
    this.failuresRunning = FAILURES_TO_OPEN;
    this.isOpenNow = true;
  }

  /** A passed /ready check closes the breaker. */
  checkPassed(): void {
    this.failuresRunning = 0;
    this.isOpenNow = false;
  }

  /** A request the peer could not take (connection refused, 5xx). */
  requestFailed(): void {
    this.failuresRunning += 1;
    if (this.failuresRunning >= FAILURES_TO_OPEN) this.isOpenNow = true;
  }

  requestServed(): void {
    if (!this.isOpenNow) this.failuresRunning = 0;
  }
}
