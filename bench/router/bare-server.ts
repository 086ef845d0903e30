// The load generator's yardstick: a Node http server that reads the request and answers a fixed
// small body, with no JSON, routing or streams. What autocannon reaches against it in the same run
// is the most any target can show; a direct figure near it means the client, not the engine, was
// the limit. Prints `bare server listening on PORT`.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const BODY = '{"object":"chat.completion"}';

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(BODY));
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`bare server listening on ${(server.address() as AddressInfo).port}`);
});
