// Next's proxy (formerly middleware): runs before every page and relayed call to give each answer
// the console's security headers, and each page a fresh CSP nonce that Next reads back from the
// request's Content-Security-Policy header to put on its scripts.
import { NextResponse, type NextRequest } from "next/server";
import { isDevelopmentBuild } from "./src/server-config";
import {
  API_CONTENT_SECURITY_POLICY,
  FRAMING_HEADERS,
  newNonce,
  pageContentSecurityPolicy,
} from "./src/lib/security-headers";

const RELAYED_PREFIXES = ["/api/", "/auth/"];

export function proxy(request: NextRequest): NextResponse {
  const isRelayed = RELAYED_PREFIXES.some((p) => request.nextUrl.pathname.startsWith(p));
  const nonce = newNonce();
  const policy = isRelayed
    ? API_CONTENT_SECURITY_POLICY
    : pageContentSecurityPolicy(nonce, isDevelopmentBuild());
  const requestHeaders = new Headers(request.headers);
  if (!isRelayed) {
    requestHeaders.set("x-nonce", nonce);
    requestHeaders.set("content-security-policy", policy);
  }
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  for (const [name, value] of Object.entries(FRAMING_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Static files carry no document; everything else (pages, /api/trpc, /auth) gets the headers.
  matcher: ["/((?!_next/static|_next/image|icon.svg).*)"],
};
