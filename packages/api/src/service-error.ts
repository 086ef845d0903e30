// The one error a service raises on purpose: a refusal with a sentence, a code and parameters.
import type { Refusal, RefusalInit } from "./refusals";

/**
 * Refusals the services raise with a sentence an operator can act on; the router turns them into
 * BAD_REQUEST / NOT_FOUND / CONFLICT answers carrying that sentence (and each error line). The
 * code and parameters let the console say the same in the operator's language.
 */
export class ServiceError extends Error {
  override readonly name = "ServiceError";
  readonly details: string[];
  readonly refusal: Refusal;
  constructor(
    readonly kind:
      "invalid" | "not_found" | "conflict" | "unavailable" | "forbidden" | "unauthorized",
    message: string,
    init: RefusalInit,
  ) {
    super(message);
    this.details = init.details ?? [];
    this.refusal = { code: init.code, params: init.params ?? {} };
  }
}
