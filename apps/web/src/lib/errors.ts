// Turns whatever a tRPC call failed with into words for the operator. Known cases are translated:
// a refusal by its code (locales/*/refusals.json) with the names the server put in it; anything
// else shows the control plane's own message, which already names what to do.
import { isRefusalCode, REFUSALS } from "@llmgw/api/schemas";
import { messageOf } from "@llmgw/domain";
import { TRPCClientError } from "@trpc/client";
import type { TFunction } from "i18next";

interface ErrorData {
  code?: string;
  apiUrl?: string;
  details?: unknown;
  refusal?: unknown;
}

function errorData(error: unknown): ErrorData | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data: unknown = error.data;
  return typeof data === "object" && data !== null ? data : null;
}

/** The tRPC error code ("UNAUTHORIZED", "NOT_FOUND", "BAD_GATEWAY"…), or null for other failures. */
export function trpcErrorCode(error: unknown): string | null {
  return errorData(error)?.code ?? null;
}

/**
 * The problems a refusal lists one per line (`error.data.details`), e.g. every reason a model
 * definition was refused; empty when the server gave none.
 */
export function trpcErrorDetails(error: unknown): string[] {
  const details = errorData(error)?.details;
  return Array.isArray(details)
    ? details.filter((line): line is string => typeof line === "string" && line !== "")
    : [];
}

function refusalParams(value: unknown): Record<string, string | number> {
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string | number] =>
        typeof entry[1] === "string" || typeof entry[1] === "number",
    ),
  );
}

/**
 * A refusal (`error.data.refusal`) in the operator's language, or null when the error carries no
 * code this console knows — then the server's English sentence is the best there is.
 */
export function translateRefusal(error: unknown, t: TFunction<"common">): string | null {
  const refusal = errorData(error)?.refusal;
  if (typeof refusal !== "object" || refusal === null || !("code" in refusal)) return null;
  const { code } = refusal;
  if (!isRefusalCode(code)) return null;
  const params = refusalParams("params" in refusal ? refusal.params : null);
  // A sentence with a hole in it helps nobody; the English one at least names everything.
  if (REFUSALS[code].some((name) => !(name in params))) return null;
  const text = t(code, { ...params, ns: "refusals" });
  return text === code ? null : text;
}

export function isUnauthorized(error: unknown): boolean {
  return trpcErrorCode(error) === "UNAUTHORIZED";
}

/** Failures that another attempt cannot fix; retrying them only delays the message. */
export function isPermanentError(error: unknown): boolean {
  const code = trpcErrorCode(error);
  return (
    code === "UNAUTHORIZED" ||
    code === "FORBIDDEN" ||
    code === "NOT_FOUND" ||
    code === "BAD_REQUEST"
  );
}

export interface DescribeOptions {
  /** Set on the sign-in form, where UNAUTHORIZED means the pair did not match. */
  isSignIn?: boolean;
}

export function describeError(
  error: unknown,
  t: TFunction<"common">,
  options: DescribeOptions = {},
): string {
  const data = errorData(error);
  if (data?.code === "BAD_GATEWAY" && data.apiUrl)
    return t("errors.unreachable", { url: data.apiUrl });
  if (options.isSignIn && data?.code === "UNAUTHORIZED") return t("errors.wrongCredentials");
  // No tRPC data at all means the response never came from tRPC: the console itself is down.
  if (error instanceof TRPCClientError && !data) return t("errors.consoleUnreachable");
  const message = translateRefusal(error, t) ?? messageOf(error);
  return t("errors.server", { message });
}

/**
 * A call that did not reach the control plane: the console's relay could not (BAD_GATEWAY), no
 * control plane leads yet (a standby's SERVICE_UNAVAILABLE), or the console itself did not answer
 * (a failed fetch carries no tRPC code at all).
 */
export function isUnreachable(error: unknown): boolean {
  const code = trpcErrorCode(error);
  return code === null || code === "BAD_GATEWAY" || code === "SERVICE_UNAVAILABLE";
}
