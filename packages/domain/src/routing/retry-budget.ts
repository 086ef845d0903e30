// A retry budget shared by all requests to one model, as Envoy's retry budgets are: a retry is
// allowed only while retries over the last window stay within a fraction of the requests in it.
// With every endpoint failing, upstream attempts therefore stay within (1 + ratio) × requests
// across requests, not only within each request. Pure: every call takes the time.
import { MinuteWindow } from "./minute-window";

export class RetryBudget {
  private readonly requests = new MinuteWindow();
  private readonly retries = new MinuteWindow();

  /**
   * `ratio`: retries allowed per request over the last minute (0.2 keeps attempts ≤ 1.2 × requests
   * once there is traffic). `floor`: retries allowed in any minute however few the requests, as
   * Envoy's min_retry_concurrency, so a quiet model still gets its rare retry.
   */
  constructor(
    private readonly ratio = 0.2,
    private readonly floor = 3,
  ) {}

  onRequest(nowMs: number): void {
    this.requests.add(nowMs, 1);
  }

  /** Takes one retry from the budget if it has room; false means: answer without retrying. */
  tryRetry(nowMs: number): boolean {
    const allowed = Math.max(this.floor, Math.floor(this.requests.total(nowMs) * this.ratio));
    if (this.retries.total(nowMs) + 1 > allowed) return false;
    this.retries.add(nowMs, 1);
    return true;
  }
}
