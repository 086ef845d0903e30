// The test harness's server start when another process holds the port `freePort` chose for it (a
// server of another test file, started in the same few seconds): the impostor answers /healthz, and
// the harness must neither take it for this server nor fail; it starts this one on other ports.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { serverSetup, startServer, type ServerHandle } from "./llmgw-fleet.ts";

describe("startServer", () => {
  const impostor = createServer((_request, response) =>
    response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'),
  );
  let server: ServerHandle | undefined;

  afterAll(async () => {
    await server?.process.stop();
    impostor.close();
  });

  it("starts the server on other ports when another process answers on the chosen one", async () => {
    impostor.listen(0, "127.0.0.1");
    await once(impostor, "listening");
    const taken = (impostor.address() as AddressInfo).port;
    const setup = await serverSetup();
    setup.httpPort = taken;

    server = await startServer(setup);

    expect(server.httpPort).not.toBe(taken);
    expect(setup.httpPort).toBe(server.httpPort);
    const health = await fetch(`${server.apiUrl}/healthz`);
    expect(((await health.json()) as { version?: string }).version).toEqual(expect.any(String));
    expect(server.caPem).toContain("BEGIN CERTIFICATE");
  }, 120_000);
});
