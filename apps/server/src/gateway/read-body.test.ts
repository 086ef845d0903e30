// readBody over a real socket: a body sent in pieces is read whole; one past the bound is refused
// with a 413 naming it, the request destroyed and no more of it kept; a client that goes away in
// the middle fails the read instead of leaving it waiting.
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { GatewayError } from "./errors";
import { readBody } from "./request-body";

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** Starts a server that reads each request with readBody; returns its port and what it read. */
async function reading(bytesMax: number) {
  const seen: { req: IncomingMessage; read: Promise<Buffer> }[] = [];
  const arrived = new Promise<{ req: IncomingMessage; read: Promise<Buffer> }>((resolve) => {
    server = createServer((req, res) => {
      const read = readBody(req, bytesMax);
      read.then(
        (body) => res.end(`read ${body.length}`),
        () => res.end(),
      );
      seen.push({ req, read });
      resolve({ req, read });
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server?.address() as AddressInfo;
  return { port, arrived };
}

function post(port: number) {
  const req = request({ port, host: "127.0.0.1", method: "POST", path: "/" });
  req.on("error", () => {});
  return req;
}

const piece = Buffer.alloc(1_000, "a");
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("readBody", () => {
  it("reads a body sent in pieces whole", async () => {
    const { port, arrived } = await reading(10_000);
    const req = post(port);
    for (let i = 0; i < 5; i++) {
      req.write(Buffer.concat([piece, Buffer.from([i])]));
      await pause();
    }
    req.end();
    const body = await (await arrived).read;
    expect(body.length).toBe(5 * 1_001);
    expect([...body.subarray(1_000, 1_001), ...body.subarray(-1)]).toEqual([0, 4]);
  });

  it("refuses a body past the bound with 413 and destroys the request", async () => {
    const { port, arrived } = await reading(2_500);
    const req = post(port);
    for (let i = 0; i < 3; i++) {
      req.write(piece);
      await pause();
    }
    const { req: received, read } = await arrived;
    const refusal = await read.then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({ status: 413, code: "request_too_large" });
    expect((refusal as GatewayError).message).toMatch(/larger than 2500 bytes/);
    expect(received.destroyed).toBe(true);
    expect(received.listenerCount("data")).toBe(0);
    req.destroy();
  });

  it("fails the read when the client goes away before the body ends", async () => {
    const { port, arrived } = await reading(10_000);
    const req = post(port);
    req.write(piece);
    const { read } = await arrived;
    req.destroy();
    await expect(read).rejects.toThrow();
    await expect(read).rejects.not.toBeInstanceOf(GatewayError);
  });
});
