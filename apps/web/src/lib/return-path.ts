// Where sign-in sends the operator afterwards: back to the page that asked them to sign in
// (`/sign-in?next=/nodes/X/logs`), but only ever to a page of this console. Anything that a browser
// could read as another site — `https://evil.example`, `//evil.example`, `/\evil.example`, or a
// path with a tab or newline (browsers drop those, so `/\t/evil.example` becomes `//evil.example`)
// — falls back to the landing page.

export const LANDING_PATH = "/cluster";
const SIGN_IN_PATH = "/sign-in";
const PROBE_ORIGIN = "http://console.invalid";

/** A same-origin path to return to, or null when `value` could lead anywhere else. */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//")) return null;
  // Control characters (browsers drop tabs and newlines) and the backslash, read as a slash.
  if (/[\\\p{Cc}]/u.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  // Returning to the sign-in page itself would only loop.
  if (isSignInPath(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Whether `pathname` is the sign-in page (where a redirect to sign in has already landed). */
export function isSignInPath(pathname: string): boolean {
  return pathname === SIGN_IN_PATH || pathname.startsWith(`${SIGN_IN_PATH}/`);
}

/** The sign-in page, remembering `currentPath` when it is worth coming back to. */
export function signInHref(currentPath: string): string {
  const next = safeReturnPath(currentPath);
  return next && next !== "/" ? `${SIGN_IN_PATH}?next=${encodeURIComponent(next)}` : SIGN_IN_PATH;
}
