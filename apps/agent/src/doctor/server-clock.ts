// This node's clock against the control plane's, for `llmgw doctor` run by hand on a node: the
// agent port answers every HTTPS request with a Date header. The header has whole seconds, so the
// result is good to about a second, finer than the doctor's 2 s warning.
import { request } from "node:https";
import { messageOf } from "@llmgw/domain";
import { loadNodeTls, loadServerUrls } from "../node-tls";

const TIMEOUT_MS = 10_000;

function serverDateMs(
  url: string,
  tls: { ca: string; cert: string; key: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "HEAD", ...tls, timeout: TIMEOUT_MS }, (res) => {
      res.resume();
      const dateMs = Date.parse(res.headers.date ?? "");
      if (Number.isNaN(dateMs)) reject(new Error(`${url} answered without a Date header`));
      else resolve(dateMs);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} in ${TIMEOUT_MS} ms`)));
    req.on("error", reject);
    req.end();
  });
}

/** Skew against the first control plane the node joined, or why it could not be compared. */
export async function skewAgainstServer(
  dataDir: string,
  nowMs: () => number,
): Promise<{ skewMs: number } | { why: string }> {
  const tls = loadNodeTls(dataDir);
  const [server] = loadServerUrls(dataDir);
  if (tls === null || server === undefined)
    return { why: `the node has not joined (no certificate or control plane in ${dataDir})` };
  const url = server.replace(/^wss:/, "https:");
  try {
    const sentMs = nowMs();
    const dateMs = await serverDateMs(url, tls);
    // The server stamped its Date somewhere between sending and receiving; take the middle. The
    // header's whole seconds are truncated, so its true time is on average half a second later.
    const localMs = (sentMs + nowMs()) / 2;
    return { skewMs: localMs - (dateMs + 500) };
  } catch (error) {
    return { why: `control plane ${url} not reached: ${messageOf(error)}` };
  }
}
