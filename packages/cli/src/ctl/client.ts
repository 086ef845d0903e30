// A tRPC client typed by the server's AppRouter, and the translation of its failures into
// sentences a person can act on.
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { TRPC_PATH, type AppRouter } from "@llmgw/api";
import { messageOf } from "@llmgw/domain";

export type ApiClient = ReturnType<typeof createTRPCClient<AppRouter>>;

export function createApiClient(server: string, token: string | null): ApiClient {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${server}${TRPC_PATH}`,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}

export class CtlError extends Error {
  override readonly name = "CtlError";
}

/**
 * Signs in with a password and returns the session token. The server answers the token to
 * clients without a browser only (a browser keeps it in an HttpOnly cookie), which the CLI is.
 */
export async function signInWithPassword(server: string, username: string, password: string) {
  const result = await createApiClient(server, null).auth.login.mutate({ username, password });
  if (!result.token)
    throw new CtlError(
      `${server} signed ${username} in but answered no session token; point --server at the llmgw API, not through a browser proxy`,
    );
  return { ...result, token: result.token };
}

export function explain(error: unknown, server: string): string {
  if (error instanceof CtlError) return error.message;
  if (error instanceof TRPCClientError) {
    const code = (error.data as { code?: string } | undefined)?.code;
    if (code === "UNAUTHORIZED") {
      return `${error.message} (server ${server}); run \`llmgw ctl login --server ${server}\``;
    }
    if (!error.data) return `cannot reach the llmgw server at ${server}: ${causeOf(error)}`;
    if (code === "FORBIDDEN") return `${error.message} (ask an admin for the operator role)`;
    return withDetails(error.message, (error.data as { details?: unknown }).details);
  }
  return messageOf(error);
}

/**
 * A refusal with several problems reads best as a list: the sentence's head, then one line each.
 * Servers often join the same lines into the message, so that tail is not printed twice.
 */
export function withDetails(message: string, details: unknown): string {
  if (!Array.isArray(details) || details.length === 0) return message;
  const lines = details.map(String);
  const joined = lines.join("; ");
  const head = message.endsWith(joined)
    ? message.slice(0, message.length - joined.length).replace(/[\s:;,-]+$/, "")
    : message;
  if (!head && lines.length === 1) return lines[0] ?? message;
  return `${head || "the server refused the request"}:\n${lines.map((line) => `  - ${line}`).join("\n")}`;
}

function causeOf(error: Error): string {
  let cause: unknown = error.cause;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  const code = (cause as { code?: string } | undefined)?.code;
  return code ?? (cause instanceof Error ? cause.message : error.message);
}
