// The browser side of single sign-on: /auth/entra/start sends the browser to Microsoft, and
// /auth/entra/callback checks what comes back, opens a session and returns to the console. A
// refusal goes back to the sign-in page with the reason, never a session.
import { messageOf } from "@llmgw/domain";
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { internalErrorMessage, SESSION_COOKIE } from "@llmgw/api";
import type { Database } from "@llmgw/db";
import { openSession } from "./auth-service";
import { type EntraSignIn, upsertEntraPerson } from "./entra";
import { SignInRefused } from "./errors";

export interface AuthRoutesOptions {
  db: Database;
  entra: EntraSignIn;
  sessionTtlMs: number;
  nowMs(): number;
  log(line: string): void;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value?.split(",")[0]?.trim();
}

/** The origin the browser used: the console's, when its proxy forwarded the request. */
export function publicOrigin(req: IncomingMessage): string {
  const proto = firstHeader(req.headers["x-forwarded-proto"]) === "https" ? "https" : "http";
  const host = firstHeader(req.headers["x-forwarded-host"]) ?? req.headers.host ?? "localhost";
  return `${proto}://${host}`;
}

/**
 * Only paths on this site: `//evil.example` and `https://…` would send people elsewhere, and so
 * would a backslash or a tab or newline, which browsers read as a slash or drop (`/\t/evil`).
 */
export function safeReturnTo(value: string | null): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || /[\\\p{Cc}]/u.test(value))
    return "/";
  return value;
}

function redirect(res: ServerResponse, location: string, cookie?: string): void {
  const headers: Record<string, string> = { location, "cache-control": "no-store" };
  if (cookie) headers["set-cookie"] = cookie;
  res.writeHead(302, headers).end();
}

export async function handleAuthRoute(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  options: AuthRoutesOptions,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://internal");
  const origin = publicOrigin(req);
  const refuse = (why: string) => redirect(res, `/sign-in?error=${encodeURIComponent(why)}`);
  if (req.method !== "GET") {
    res.writeHead(405, { allow: "GET", "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: `${path} answers GET only` } }));
    return;
  }
  try {
    if (path === "/auth/entra/start") {
      const target = await options.entra.start(
        origin,
        safeReturnTo(url.searchParams.get("returnTo")),
      );
      return redirect(res, target.href);
    }
    if (path === "/auth/entra/callback") {
      const callback = new URL(`${origin}${path}${url.search}`);
      const { person, returnTo } = await options.entra.finish(callback);
      const user = await upsertEntraPerson(options.db, person);
      const session = await openSession(
        options.db,
        user,
        "entra",
        options.sessionTtlMs,
        options.nowMs(),
      );
      const secure = origin.startsWith("https:") ? "; Secure" : "";
      const cookie = `${SESSION_COOKIE}=${encodeURIComponent(session.token)}; Path=/; HttpOnly; SameSite=Lax; Expires=${new Date(session.expiresAt).toUTCString()}${secure}`;
      return redirect(res, returnTo, cookie);
    }
  } catch (error) {
    if (error instanceof SignInRefused || (error as Error).name === "ServiceError") {
      options.log(`sign-in refused: ${messageOf(error)}`);
      return refuse(messageOf(error));
    }
    // An unexpected failure's text (a stack, a store error) stays in the log under the id shown.
    const requestId = randomUUID();
    options.log(
      `sign-in failed (request id ${requestId}): ${(error as Error).stack ?? String(error)}`,
    );
    return refuse(internalErrorMessage(requestId));
  }
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message: `no route for GET ${path}` } }));
}
