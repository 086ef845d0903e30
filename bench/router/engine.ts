// The baseline engine: an OpenAI-shaped chat endpoint that answers from memory, as fast as Node's
// http server can, or after a fixed delay (`--delay-ms 20`). A stream is `--chunks` SSE events, one
// write each, then usage and [DONE]. It checks no key and counts nothing, so every gateway in front
// of it is measured against the cheapest answer possible. Prints `engine listening on PORT`.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    "delay-ms": { type: "string", default: "0" },
    chunks: { type: "string", default: "16" },
  },
});
const delayMs = Number(values["delay-ms"]);
const chunks = Number(values.chunks);

const USAGE = { prompt_tokens: 8, completion_tokens: chunks, total_tokens: 8 + chunks };
const WHOLE = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 0,
  model: "bench",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: "tok ".repeat(chunks).trim() },
      finish_reason: "stop",
    },
  ],
  usage: USAGE,
});
const event = (delta: object, extra: object = {}) =>
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "bench", choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
const EVENTS = [
  event({ role: "assistant", content: "" }),
  ...Array.from({ length: chunks }, () => event({ content: "tok " })),
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "bench", choices: [], usage: USAGE })}\n\n`,
  "data: [DONE]\n\n",
];

function answerWhole(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "application/json" }).end(WHOLE);
}

/** One write per event, each on its own turn of the event loop, so they leave as separate chunks. */
function answerStream(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let at = 0;
  const next = () => {
    if (res.destroyed) return;
    const text = EVENTS[at++];
    if (text === undefined) return void res.end();
    res.write(text);
    setImmediate(next);
  };
  next();
}

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on("data", (part: Buffer) => parts.push(part));
  req.on("end", () => {
    if (req.method === "GET") {
      if (req.url === "/metrics") return void res.writeHead(200).end("");
      return void res.writeHead(200, { "content-type": "application/json" }).end("{}");
    }
    const isStream = /"stream"\s*:\s*true/.test(Buffer.concat(parts).toString("utf8"));
    const answer = () => (isStream ? answerStream(res) : answerWhole(res));
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(values.port), "127.0.0.1", () => {
  console.log(`engine listening on ${(server.address() as AddressInfo).port}`);
});
