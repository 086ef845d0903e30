// One HTTPS request to the agent port with a JSON answer, with exactly the trust given: the CA
// fetched for pinning is read with no verification at all (its fingerprint is checked after),
// everything else with the cluster CA as the only anchor and the host name checked.
import { request } from "node:https";

export interface HttpsAnswer {
  status: number;
  text: string;
}

export interface HttpsCall {
  url: string;
  method: "GET" | "POST";
  body?: unknown;
  /** Trust: `insecure` only to fetch the CA that is then pinned by fingerprint. */
  tls: { insecure: true } | { ca: string; cert?: string; key?: string };
  timeoutMs?: number;
}

const ANSWER_BYTES_MAX = 256 * 1024;

export function httpsCall(call: HttpsCall): Promise<HttpsAnswer> {
  const tls = "insecure" in call.tls ? { rejectUnauthorized: false } : call.tls;
  const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
  return new Promise((resolve, reject) => {
    const req = request(
      call.url,
      {
        method: call.method,
        ...tls,
        timeout: call.timeoutMs ?? 15_000,
        headers: payload ? { "content-type": "application/json" } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > ANSWER_BYTES_MAX) req.destroy(new Error("the answer is too large"));
          else chunks.push(chunk);
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer from ${call.url} in time`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/** The `message` of a `{code, message}` refusal, or the status and text. */
export function refusalText(answer: HttpsAnswer): string {
  try {
    const parsed = JSON.parse(answer.text) as { message?: unknown };
    if (typeof parsed.message === "string") return `${answer.status}: ${parsed.message}`;
  } catch {
    // not JSON: the text itself says it
  }
  return `${answer.status}: ${answer.text.slice(0, 200)}`;
}
