// The console's only reader of process.env. It runs on the server side of the console (the tRPC
// proxy) and is called per request, so one build can be pointed at any control plane at run time.
import { z } from "zod";

const DEFAULT_API_URL = "http://127.0.0.1:8080";

export interface ServerConfig {
  /** Base URL of the control plane's public HTTP listener, without a trailing slash. */
  apiUrl: string;
}

const apiUrlSchema = z
  .string()
  .trim()
  .url("LLMGW_API_URL must be an absolute http(s) URL such as http://127.0.0.1:8080")
  .refine((value) => /^https?:\/\//i.test(value), {
    message:
      "LLMGW_API_URL must start with http:// or https://; the console proxies tRPC over HTTP",
  });

/** Reads the console's settings; throws with a message naming the setting when one is malformed. */
export function readServerConfig(
  env: Record<string, string | undefined> = process.env,
): ServerConfig {
  const raw = env.LLMGW_API_URL?.trim() || DEFAULT_API_URL;
  const parsed = apiUrlSchema.safeParse(raw);
  if (!parsed.success) {
    const reason = parsed.error.issues.map((issue) => issue.message).join("; ");
    throw new Error(`LLMGW_API_URL="${raw}" is not usable: ${reason}`);
  }
  return { apiUrl: parsed.data.replace(/\/+$/, "") };
}

/** A development server (`next dev`): the page policy then allows what React's overlay needs. */
export function isDevelopmentBuild(env: Record<string, string | undefined> = process.env): boolean {
  return env.NODE_ENV === "development";
}
