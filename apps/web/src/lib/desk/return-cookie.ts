// "/" sends a person back to the page they last had open on this device (last-page.ts). Done in
// the page, that is a second navigation after the console has loaded once for "/" (P9: "/" took
// 0.4 s longer than the page it opened). So the shell also keeps that page's path in a cookie, and
// the console's proxy answers "/" with a redirect to it before anything loads; without the cookie
// "/" loads and sends on as before. The cookie holds only a path, followed only by the rule that
// sign-in's `?next=` follows; signing out or an ended session removes it.
import { safeReturnPath } from "../return-path";

export const RETURN_COOKIE = "llmgw_return";
const MAX_AGE_S = 30 * 24 * 60 * 60;

function isReturnPath(path: string): boolean {
  return path !== "/" && safeReturnPath(path) === path;
}

/** The cookies of a request, as Next's `request.cookies` reads them (values already decoded). */
interface CookieReader {
  get(name: string): { value: string } | undefined;
}

/** Where a request for "/" with these cookies is sent on to, or null to serve "/". */
export function returnTarget(cookies: CookieReader): string | null {
  const path = cookies.get(RETURN_COOKIE)?.value;
  return path !== undefined && isReturnPath(path) ? path : null;
}

/** Keeps `path` (pathname and search) as where "/" sends this browser next. */
export function keepReturnPath(path: string): void {
  if (!isReturnPath(path)) return;
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${RETURN_COOKIE}=${encodeURIComponent(path)}; Path=/; SameSite=Lax; Max-Age=${MAX_AGE_S}${secure}`;
}

export function forgetReturnPath(): void {
  if (typeof document === "undefined") return;
  document.cookie = `${RETURN_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`;
}
