// Builds the tRPC context for one request: who is calling (cookie or bearer token) and how to
// set or clear the console's session cookie.
import type { IncomingMessage, ServerResponse } from "node:http";
import { SESSION_COOKIE, type ApiContext, type ApiServices, type UserView } from "@llmgw/api";
import { clientAddressOf } from "./client-address";

export function sessionTokenFrom(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice("Bearer ".length).trim() || null;
  const cookies = req.headers.cookie?.split(";") ?? [];
  for (const cookie of cookies) {
    const [name, ...rest] = cookie.trim().split("=");
    if (name === SESSION_COOKIE) return decodedCookie(rest.join("="));
  }
  return null;
}

/** A cookie value that does not decode (`%`, `%zz`) is no cookie: the caller is simply anonymous. */
function decodedCookie(value: string): string | null {
  try {
    return decodeURIComponent(value) || null;
  } catch {
    return null;
  }
}

/**
 * Browsers name the page behind every fetch in Sec-Fetch-Site and every POST in Origin, and a
 * script cannot remove either; the CLI and scripts send neither.
 */
export function isBrowserRequest(req: IncomingMessage): boolean {
  return req.headers.origin !== undefined || req.headers["sec-fetch-site"] !== undefined;
}

export async function createContext(
  req: IncomingMessage,
  res: ServerResponse,
  services: ApiServices,
  resolveUser: (token: string) => Promise<UserView | null>,
): Promise<ApiContext> {
  const sessionToken = sessionTokenFrom(req);
  const user = sessionToken ? await resolveUser(sessionToken) : null;
  // Behind the console's proxy the browser talks HTTPS when the console does; Secure follows it.
  const secure = req.headers["x-forwarded-proto"] === "https" ? "; Secure" : "";
  return {
    services,
    sessionToken,
    user,
    // The TCP peer, not X-Forwarded-For: that header is whatever the caller wrote. Behind a
    // standby, the peer that standby saw (only a control plane's certificate can say so).
    clientAddress: clientAddressOf(req),
    isBrowser: isBrowserRequest(req),
    setSessionCookie(token, expiresAt) {
      res.appendHeader(
        "set-cookie",
        `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Expires=${expiresAt.toUTCString()}${secure}`,
      );
    },
    clearSessionCookie() {
      res.appendHeader(
        "set-cookie",
        `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`,
      );
    },
  };
}

/**
 * Cross-site request forgery guard for state-changing requests: a browser names the page that sent
 * the request in Origin (and Sec-Fetch-Site); it must be this host, or the console's host that the
 * console's proxy forwards. Clients without a browser (the CLI, scripts) send neither and pass.
 */
export function crossSiteRefusal(req: IncomingMessage): string | null {
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return null;
  const origin = req.headers.origin;
  const host = firstHeader(req.headers["x-forwarded-host"]) ?? req.headers.host ?? "";
  if (origin !== undefined) {
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (originHost !== host)
      return `refused a ${method} from another site (Origin ${origin}, this is ${host}); use the console or the CLI`;
    return null;
  }
  if (firstHeader(req.headers["sec-fetch-site"]) === "cross-site")
    return `refused a ${method} from another site; use the console or the CLI`;
  return null;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value?.split(",")[0]?.trim();
}
