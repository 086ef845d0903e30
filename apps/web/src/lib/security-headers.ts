// The console's browser-facing security headers. Pages get a Content-Security-Policy with a fresh
// nonce per request: Next puts it on its own scripts, and the root layout on the preferences boot
// script, so no other inline script runs. Nothing of the console may be framed by another site.

/** Headers every console answer carries, pages and relayed API calls alike. */
export const FRAMING_HEADERS: Readonly<Record<string, string>> = {
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
};

/** The policy for relayed JSON (tRPC, single sign-on redirects): it runs nothing and frames nowhere. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The policy for a page. Styles may be inline: the charts set style attributes, and a style
 * cannot run code. The service worker (/sw.js) and the web app manifest come from the console
 * itself. Development needs 'unsafe-eval' for React's error overlay; production does not.
 */
export function pageContentSecurityPolicy(nonce: string, isDevelopment: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDevelopment ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // Named on their own: with 'strict-dynamic' a browser ignores 'self' in script-src, which
    // worker-src would otherwise fall back to, and the installed console needs both.
    "worker-src 'self'",
    "manifest-src 'self'",
    `connect-src 'self'${isDevelopment ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
