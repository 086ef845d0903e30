// The anchor: the barest reverse proxy worth the name, in about 40 lines: undici's pooled
// `request` to one upstream, the answer piped back. No keys, no limits, no routing, no accounting.
// Any gateway does at least this much work. Prints `bare proxy listening on PORT`.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";

const { values } = parseArgs({ options: { upstream: { type: "string" } } });
const upstream = values.upstream ?? "http://127.0.0.1:8000";
const agent = new Agent({ connections: 256, keepAliveTimeout: 30_000 });

const server = createServer((req, res) => {
  const headers: Record<string, string> = {};
  for (const name of ["content-type", "accept", "authorization"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  request(`${upstream}${req.url ?? "/"}`, {
    dispatcher: agent,
    method: req.method === "POST" ? "POST" : "GET",
    headers,
    body: req.method === "POST" ? req : null,
  })
    .then(async (answer) => {
      const contentType = answer.headers["content-type"];
      res.writeHead(
        answer.statusCode,
        typeof contentType === "string" ? { "content-type": contentType } : {},
      );
      await pipeline(answer.body, res);
    })
    .catch((error: Error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(error.message);
    });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`bare proxy listening on ${(server.address() as AddressInfo).port}`);
});
