// A real upstream MCP server for the gateway's tests: @modelcontextprotocol/server-everything over
// streamable HTTP, started with an empty environment (it has a get-env tool) on loopback, behind a
// small recording relay. The relay keeps every request's headers and body, so a test can prove
// what reached the upstream (the sealed credential) and what did not (the caller's key), and it
// can be told to fail a path with 502 to trip the gateway's breaker.
import { createRequire } from "node:module";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  freePort,
  registerCleanup,
  spawnProcess,
  waitFor,
  type SpawnedProcess,
} from "@llmgw/testing";

const require = createRequire(import.meta.url);

interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Upstream {
  everything: SpawnedProcess;
  /** `http://127.0.0.1:PORT/<name>/mcp` reaches the upstream's /mcp through the relay. */
  url(name: string): string;
  recorded: RecordedRequest[];
  /** Paths (by name) the relay answers with 502 instead of forwarding. */
  failing: Set<string>;
  stop(): Promise<void>;
}

export async function startUpstream(): Promise<Upstream> {
  const port = await freePort();
  const entry = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
  const everything = spawnProcess(process.execPath, [entry, "streamableHttp"], {
    name: "server-everything",
    baseEnv: {},
    env: { PORT: String(port) },
  });
  await everything.waitForOutput(/listening on port/, 30_000);
  const recorded: RecordedRequest[] = [];
  const failing = new Set<string>();
  const relay: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const name = (req.url ?? "/").split("/")[1] ?? "";
      recorded.push({ path: req.url ?? "/", headers: req.headers, body: body.toString("utf8") });
      if (failing.has(name)) {
        res.writeHead(502, { "content-type": "text/plain" }).end("relay: upstream failing");
        return;
      }
      const upstream = request(
        { host: "127.0.0.1", port, path: "/mcp", method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.writeHead(502).end("relay: no upstream"));
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const relayPort = (relay.address() as AddressInfo).port;
  const stop = async () => {
    relay.closeAllConnections();
    await new Promise<void>((resolve) => relay.close(() => resolve()));
    await everything.stop();
  };
  registerCleanup({ name: "mcp relay", stop, killNow: () => everything.kill("SIGKILL") });
  await waitFor(async () => (await fetch(`http://127.0.0.1:${relayPort}/x/mcp`)).status > 0, {
    what: "the MCP relay",
  });
  return {
    everything,
    url: (name) => `http://127.0.0.1:${relayPort}/${name}/mcp`,
    recorded,
    failing,
    stop,
  };
}
