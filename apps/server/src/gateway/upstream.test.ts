// callUpstream over real sockets with undici's dispatch: the answer's head and passed headers, its
// body read whole or with the reader's backpressure, chunks that come before the reader held for
// it, a client's hang-up before the head and while the reader waits, a cancelled read closing the
// engine's connection, and a port with nothing behind it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { callUpstream, originAndPath, type UpstreamCall, type UpstreamResult } from "./upstream";
import { chunksOf } from "./upstream-body";

let server: Server | undefined;
const agent = new Agent({ connections: 4 });
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function engine(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  server = createServer(answer);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
}

function call(origin: string, signal = new AbortController().signal): UpstreamCall {
  return {
    agent,
    url: `${origin}/v1/chat/completions?x=1`,
    method: "POST",
    body: Buffer.from('{"model":"m"}'),
    replicaKey: "replica-key",
    requestId: "req-1",
    accept: "text/event-stream",
    signal,
  };
}

function answered(result: UpstreamResult) {
  if (result.kind !== "response") throw new Error(`no answer: ${result.message}`);
  return result;
}

/** An engine that writes `parts` one per turn, then ends. */
const parts = (texts: string[]) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  let at = 0;
  const next = () => {
    const text = texts[at++];
    if (text === undefined) return void res.end();
    res.write(text);
    setTimeout(next, 2);
  };
  next();
};

describe("callUpstream", () => {
  it("sends the replica's key and request id and passes the answer's head and body", async () => {
    let seen: IncomingMessage | undefined;
    const origin = await engine((req, res) => {
      seen = req;
      req.resume();
      res.writeHead(429, {
        ...{ "content-type": "application/json", "content-length": "21" },
        ...{ "retry-after": "3", "x-other": "1" },
      });
      res.end('{"error":"slow down"}');
    });
    const result = answered(await callUpstream(call(origin)));
    expect(result.status).toBe(429);
    expect(result.headers).toEqual({ "content-type": "application/json", "retry-after": "3" });
    expect(result.length).toBe("21");
    expect(await result.body.text()).toBe('{"error":"slow down"}');
    expect(seen?.url).toBe("/v1/chat/completions?x=1");
    expect(seen?.headers.authorization).toBe("Bearer replica-key");
    expect(seen?.headers["x-request-id"]).toBe("req-1");
    expect(seen?.headers.accept).toBe("text/event-stream");
  });

  it("pauses the body while the reader waits and hands every chunk over in order", async () => {
    const origin = await engine(parts(["a", "b", "c", "d"]));
    const result = answered(await callUpstream(call(origin)));
    const got: string[] = [];
    const read = result.body.read((chunk) => {
      got.push(chunk.toString());
      return false;
    });
    for (let seen = 1; seen <= 4; seen += 1) {
      for (let turn = 0; turn < 100 && got.length < seen; turn += 1) await sleep(5);
      await sleep(20);
      // Nothing more came while the reader waited.
      expect(got.length).toBe(seen);
      result.body.resume();
    }
    await read;
    expect(got.join("")).toBe("abcd");
  });

  it("holds the chunks that come before the reader", async () => {
    const origin = await engine((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"whole":true}');
    });
    const result = answered(await callUpstream(call(origin)));
    await sleep(50);
    expect(await result.body.text()).toBe('{"whole":true}');
  });

  it("is a connection error when the client hangs up before the head, and the engine sees it", async () => {
    let closed = false;
    const origin = await engine((req) => {
      req.resume();
      req.socket.on("close", () => (closed = true));
    });
    const client = new AbortController();
    const pending = callUpstream(call(origin, client.signal));
    await sleep(50);
    client.abort();
    const result = await pending;
    expect(result.kind).toBe("connection-error");
    await sleep(50);
    expect(closed).toBe(true);
  });

  it("ends a read that waits for its client when the client hangs up", async () => {
    const origin = await engine(parts(["a", "b", "c"]));
    const client = new AbortController();
    const result = answered(await callUpstream(call(origin, client.signal)));
    const read = result.body.read(() => false);
    await sleep(30);
    client.abort();
    await expect(read).rejects.toThrow();
  });

  it("closes the engine's connection when the reader stops", async () => {
    let closed = false;
    const origin = await engine((req, res) => {
      req.socket.on("close", () => (closed = true));
      parts(["a", "b", "c", "d", "e", "f"])(req, res);
    });
    const result = answered(await callUpstream(call(origin)));
    const got: string[] = [];
    for await (const chunk of chunksOf(result.body)) {
      got.push(chunk.toString());
      if (got.length === 2) break;
    }
    await sleep(50);
    expect(got).toEqual(["a", "b"]);
    expect(closed).toBe(true);
  });

  it("reads every chunk one at a time through chunksOf", async () => {
    const origin = await engine(parts(["x", "y", "z"]));
    const result = answered(await callUpstream(call(origin)));
    const got: string[] = [];
    for await (const chunk of chunksOf(result.body)) {
      got.push(chunk.toString());
      await sleep(5);
    }
    expect(got.join("")).toBe("xyz");
  });

  it("is a connection error with its code where nothing listens", async () => {
    const origin = await engine(() => {});
    server?.close();
    const result = await callUpstream(call(origin));
    expect(result).toMatchObject({ kind: "connection-error", code: "ECONNREFUSED" });
  });
});

describe("originAndPath", () => {
  it("splits an address into origin and path, and refuses what is not http", () => {
    expect(originAndPath("http://10.0.0.1:8000/v1/chat/completions")).toEqual({
      ok: true,
      origin: "http://10.0.0.1:8000",
      path: "/v1/chat/completions",
    });
    expect(originAndPath("https://api.example.com")).toEqual({
      ok: true,
      origin: "https://api.example.com",
      path: "/",
    });
    expect(originAndPath("ftp://x/y").ok).toBe(false);
  });
});
