// Next's proxy (formerly middleware): runs before every page and relayed call to give each answer
// the console's security headers, and each page a fresh CSP nonce that Next reads back from the
// request's Content-Security-Policy header to put on its scripts.
import { NextResponse, type NextRequest } from "next/server";
import { isDevelopmentBuild } from "./src/server-config";
import { SESSION_COOKIE } from "@llmgw/api/schemas";
import { returnTarget } from "./src/lib/desk/return-cookie";
import { openingPreloadHeader } from "./src/lib/opening-preloads";
import {
  API_CONTENT_SECURITY_POLICY,
  FRAMING_HEADERS,
  newNonce,
  pageContentSecurityPolicy,
} from "./src/lib/security-headers";

const RELAYED_PREFIXES = ["/api/", "/auth/"];

function withSecurityHeaders(response: NextResponse, policy: string): NextResponse {
  response.headers.set("content-security-policy", policy);
  for (const [name, value] of Object.entries(FRAMING_HEADERS)) response.headers.set(name, value);
  return response;
}

/**
 * "/" with the page this browser last had open (lib/desk/return-cookie.ts): a redirect there,
 * so the console loads once, for that page, instead of for "/" and then again.
 */
function returnRedirect(request: NextRequest): NextResponse | null {
  if (request.nextUrl.pathname !== "/" || !["GET", "HEAD"].includes(request.method)) return null;
  const target = returnTarget(request.cookies);
  if (target === null) return null;
  const response = NextResponse.redirect(new URL(target, request.nextUrl), 307);
  // Each person's answer differs by cookie; no cache may keep one for another.
  response.headers.set("cache-control", "private, no-store");
  return withSecurityHeaders(response, API_CONTENT_SECURITY_POLICY);
}

export function proxy(request: NextRequest): NextResponse {
  const redirect = returnRedirect(request);
  if (redirect) return redirect;
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
  if (!isRelayed) preloadOpeningCalls(request, response);
  return withSecurityHeaders(response, policy);
}

/** A signed-in page's first calls start with the document (lib/opening-preloads.ts). */
function preloadOpeningCalls(request: NextRequest, response: NextResponse): void {
  if (request.method !== "GET" || !request.cookies.has(SESSION_COOKIE)) return;
  const links = openingPreloadHeader(request.nextUrl.pathname, request.nextUrl.search);
  if (links !== null) response.headers.set("link", links);
}

export const config = {
  // Static files carry no document; everything else (pages, /api/trpc, /auth) gets the headers.
  matcher: ["/((?!_next/static|_next/image|icon.svg).*)"],
};
