// The console's only reader of process.env. It runs on the server side of the console (the tRPC
// proxy) and is called per request, so one build can be pointed at any control plane at run time.
import { z } from "zod";

const DEFAULT_API_URL = "http://127.0.0.1:8080";

export interface ServerConfig {
  /** Base URL of the control plane's public HTTP listener, without a trailing slash. */
  apiUrl: string;
  /**
   * The control plane's address as clients outside see it (LLMGW_PUBLIC_API_URL), shown in the
   * console for API keys, /mcp and SCIM; absent when the console derives it (see lib/addresses).
   */
  publicApiUrl?: string;
}

const apiUrlSchema = z
  .string()
  .trim()
  .url("LLMGW_API_URL must be an absolute http(s) URL such as http://127.0.0.1:8080")
  .refine((value) => /^https?:\/\//i.test(value), {
    message:
      "LLMGW_API_URL must start with http:// or https://; the console proxies tRPC over HTTP",
  });

function parseUrl(setting: string, raw: string): string {
  const parsed = apiUrlSchema.safeParse(raw);
  if (!parsed.success) {
    const reason = parsed.error.issues
      .map((issue) => issue.message.replace("LLMGW_API_URL", setting))
      .join("; ");
    throw new Error(`${setting}="${raw}" is not usable: ${reason}`);
  }
  return parsed.data.replace(/\/+$/, "");
}

/** Reads the console's settings; throws with a message naming the setting when one is malformed. */
export function readServerConfig(
  env: Record<string, string | undefined> = process.env,
): ServerConfig {
  const apiUrl = parseUrl("LLMGW_API_URL", env.LLMGW_API_URL?.trim() || DEFAULT_API_URL);
  const publicRaw = env.LLMGW_PUBLIC_API_URL?.trim();
  return publicRaw
    ? { apiUrl, publicApiUrl: parseUrl("LLMGW_PUBLIC_API_URL", publicRaw) }
    : { apiUrl };
}

/** A development server (`next dev`): the page policy then allows what React's overlay needs. */
export function isDevelopmentBuild(env: Record<string, string | undefined> = process.env): boolean {
  return env.NODE_ENV === "development";
}

/** The console build serving this request (fixed when `next build` ran; see next.config.ts). */
export function consoleBuild(env: Record<string, string | undefined> = process.env): string {
  return env.LLMGW_CONSOLE_BUILD ?? "development";
}
