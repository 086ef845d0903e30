// A refusal that is only for now: the caller may try again after `retryAfterS`. The router answers
// it as 429 and the HTTP port adds Retry-After.
import type { Refusal, RefusalInit } from "./refusals";

export class RetryLaterError extends Error {
  override readonly name = "RetryLaterError";
  /** The code and names of the refusal, so the console can say it in the person's language. */
  readonly refusal: Refusal;
  constructor(
    message: string,
    readonly retryAfterS: number,
    init: RefusalInit,
  ) {
    super(message);
    this.refusal = { code: init.code, params: init.params ?? {} };
  }
}
