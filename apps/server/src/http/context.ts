// Builds the tRPC context for one request: who is calling (cookie or bearer token) and how to
// set or clear the console's session cookie.
import type { IncomingMessage, ServerResponse } from "node:http";
import { SESSION_COOKIE, type ApiContext, type ApiServices, type UserView } from "@llmgw/api";

export function sessionTokenFrom(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice("Bearer ".length).trim() || null;
  const cookies = req.headers.cookie?.split(";") ?? [];
  for (const cookie of cookies) {
    const [name, ...rest] = cookie.trim().split("=");
    if (name === SESSION_COOKIE) return decodeURIComponent(rest.join("=")) || null;
  }
  return null;
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
