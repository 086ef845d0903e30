// Fetches a release from the control plane's agent port into the agent's data directory, hashing
// it on the way. Over TLS it presents the node's certificate and trusts only the cluster CA.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { rm } from "node:fs/promises";
import { hashToFile } from "@llmgw/release";

/** The node's TLS material for the agent port: the cluster CA, its certificate and key (PEM). */
export interface NodeTls {
  ca: string | Buffer;
  cert: string | Buffer;
  key: string | Buffer;
}

/** `wss://host:port/agent/v1` + `/agent/v1/releases/f` → `https://host:port/agent/v1/releases/f`. */
export function releaseUrl(serverUrl: string, urlPath: string): URL {
  const base = new URL(serverUrl);
  base.protocol = base.protocol === "wss:" ? "https:" : "http:";
  return new URL(urlPath, base.origin);
}

function get(url: URL, tls: NodeTls | undefined, timeoutMs: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const options = {
      timeout: timeoutMs,
      ...(tls && { ca: tls.ca, cert: tls.cert, key: tls.key }),
    };
    const req =
      url.protocol === "https:"
        ? httpsRequest(url, { ...options, method: "GET" }, resolve)
        : httpRequest(url, { ...options, method: "GET" }, resolve);
    req.on("timeout", () =>
      req.destroy(new Error(`no answer from ${url.origin} within ${timeoutMs} ms`)),
    );
    req.on("error", reject);
    req.end();
  });
}

/** Downloads `url` to `path`; answers the SHA-256 of what arrived. The caller compares it. */
export async function downloadRelease(
  url: URL,
  path: string,
  options: { tls: NodeTls | undefined; bytesMax: number; timeoutMs: number },
): Promise<{ sha256: string; bytes: number }> {
  const res = await get(url, options.tls, options.timeoutMs);
  if (res.statusCode !== 200) {
    res.resume();
    throw new Error(`the control plane answered HTTP ${res.statusCode ?? "?"} for ${url.pathname}`);
  }
  await rm(path, { force: true });
  return hashToFile(res, path, options.bytesMax);
}
