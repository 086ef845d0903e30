// Starts Portkey's gateway as npm ships it (`build/start-server.js --port=N --headless`), with one
// repair. On start, @hono/node-server swaps the global Response for a lighter class whose headers,
// for a streamed body, are the upstream fetch's immutable ones; Portkey then appends its x-portkey-*
// headers and every stream on Node fails with "TypeError: immutable" (Portkey-AI/gateway#1389,
// #1550). The swap keeps the property writable, so Node's own Response is put back once Portkey has
// started: plain answers are unchanged in kind, and streams work. `--as-shipped` skips the repair.
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    server: { type: "string" },
    port: { type: "string" },
    "as-shipped": { type: "boolean", default: false },
  },
});
const NodeResponse = globalThis.Response;
process.argv = [
  process.argv[0] ?? "node",
  values.server ?? "",
  `--port=${values.port ?? "8787"}`,
  "--headless",
];
await import(values.server ?? "");
if (!values["as-shipped"]) globalThis.Response = NodeResponse;
console.log(`Portkey listening on ${values.port ?? "8787"}`);
