// The baseline for P7: a `ws` server with the very TLS the agent port uses (the server certificate,
// client certificates required and checked against the cluster CA) that reads every frame and
// throws it away. `--home` names the llmgw home whose pki/ it borrows. Prints "listening on PORT".
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { AGENT_WS_PATH } from "@llmgw/proto";
import { WebSocketServer } from "ws";

const { values } = parseArgs({ options: { home: { type: "string" } } });
if (!values.home) throw new Error("bare server: --home <llmgw home> is required");
const pki = join(values.home, "pki");
const https = createServer({
  ca: readFileSync(join(pki, "ca.crt")),
  cert: readFileSync(join(pki, "server.crt")),
  key: readFileSync(join(pki, "server.key")),
  requestCert: true,
  rejectUnauthorized: true,
});
const wss = new WebSocketServer({ server: https, path: AGENT_WS_PATH, perMessageDeflate: false });
wss.on("connection", (ws) => {
  ws.on("message", () => undefined);
});
https.listen(0, "127.0.0.1", () => {
  const address = https.address();
  console.log(`listening on ${typeof address === "object" && address ? address.port : 0}`);
});
