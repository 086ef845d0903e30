// A refusal that is only for now: the caller may try again after `retryAfterS`. The router answers
// it as 429 and the HTTP port adds Retry-After.
export class RetryLaterError extends Error {
  override readonly name = "RetryLaterError";
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super(message);
  }
}
