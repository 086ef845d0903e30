// The two addresses the console shows people so they can copy them: the console's own (Entra's
// redirect URI is on it) and the control plane's as a client outside sees it (the base URL for API
// keys, /mcp, SCIM). LLMGW_API_URL is where the console reaches the control plane, often the
// loopback; a browser on another machine cannot use that. So the public address is
// LLMGW_PUBLIC_API_URL when set, else LLMGW_API_URL with a loopback host replaced by the host the
// browser used for the console (same scheme and port as LLMGW_API_URL).
import type { ServerConfig } from "../server-config";

export interface ConsoleAddresses {
  /** The origin the browser used for the console, e.g. `https://gpu.corp.example:3000`. */
  consoleUrl: string;
  /** The control plane's public HTTP listener, without a trailing slash. */
  apiUrl: string;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "0.0.0.0", "[::]"]);

function firstHeader(request: Request, name: string): string | null {
  return request.headers.get(name)?.split(",")[0]?.trim() || null;
}

/** The origin the browser asked for, through a reverse proxy (X-Forwarded-*) when there is one. */
export function browserOrigin(request: Request): string {
  const url = new URL(request.url);
  const proto = firstHeader(request, "x-forwarded-proto") === "https" ? "https:" : url.protocol;
  const host = firstHeader(request, "x-forwarded-host") ?? request.headers.get("host") ?? url.host;
  return new URL(`${proto}//${host}`).origin;
}

export function publicAddresses(request: Request, config: ServerConfig): ConsoleAddresses {
  const consoleUrl = browserOrigin(request);
  if (config.publicApiUrl) return { consoleUrl, apiUrl: config.publicApiUrl };
  const api = new URL(config.apiUrl);
  const browserHost = new URL(consoleUrl).hostname;
  if (LOOPBACK_HOSTS.has(api.hostname) && !LOOPBACK_HOSTS.has(browserHost))
    api.hostname = browserHost;
  return { consoleUrl, apiUrl: `${api.origin}${api.pathname}`.replace(/\/+$/, "") };
}
