// An internal failure's text (SQL with its parameters, a stack, a path on the server) never goes
// to a client. The client gets a request id and a plain sentence; the server logs the detail under
// the same id, so an operator can find it from what the person reports.
import type { TRPCError } from "@trpc/server";

// Keyed by the error object: the formatter and the server's onError see the same one.
const requestIds = new WeakMap<object, string>();

/** The request id of a failure, the same on every call for the same error. */
export function requestIdOf(error: object): string {
  let id = requestIds.get(error);
  if (!id) {
    id = globalThis.crypto.randomUUID();
    requestIds.set(error, id);
  }
  return id;
}

export function internalErrorMessage(requestId: string): string {
  return `the server failed on this request (request id ${requestId}); try again, and if it keeps failing give an operator this id: the server log has the detail`;
}

/** What a client sees of an INTERNAL_SERVER_ERROR: the generic sentence and the id, no detail. */
export function maskInternalError<Shape extends { message: string; data: object }>(
  shape: Shape,
  error: TRPCError,
): Shape {
  const requestId = requestIdOf(error);
  return {
    ...shape,
    message: internalErrorMessage(requestId),
    data: { ...shape.data, stack: undefined, zodIssues: null, details: [], requestId },
  };
}
