// Hostile input on the agent port (S2): random bytes, truncated and oversized frames, text frames,
// missing and wrong join tokens. The server must answer or close with a reason, stay up, and keep
// its memory bounded.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  AGENT_WS_PATH,
  decodeEnvelope,
  encodeEnvelope,
  ErrorCode,
  type Envelope,
} from "@llmgw/proto";
import { serverSetup, startServer, JOIN_TOKEN, type ServerHandle } from "./harness";

let server: ServerHandle;
beforeAll(async () => {
  server = await startServer(await serverSetup());
});
afterAll(async () => server.process.stop());

/** Seeded so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Peer {
  ws: WebSocket;
  frames: Envelope[];
  closed: Promise<{ code: number; reason: string }>;
}

async function connect(): Promise<Peer> {
  const ws = new WebSocket(`${server.agentUrl}${AGENT_WS_PATH}`, { maxPayload: 16 * 1024 * 1024 });
  const frames: Envelope[] = [];
  ws.on("message", (data: Buffer) => frames.push(decodeEnvelope(data)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return { ws, frames, closed };
}

const registerFrame = (token: string) =>
  encodeEnvelope({
    requestId: "r1",
    msg: { case: "register", value: { nodeId: "fuzz-node", nodeName: "fuzz", joinToken: token } },
  });

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

async function healthy(): Promise<boolean> {
  return (await fetch(`${server.apiUrl}/healthz`)).ok;
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("agent port under hostile input", () => {
  it("closes a socket whose join token is wrong or missing, with a reason", async () => {
    for (const token of ["wrong-token", ""]) {
      const peer = await connect();
      peer.ws.send(registerFrame(token));
      const closed = await peer.closed;
      expect(closed.code).toBe(4401);
      expect(closed.reason).toMatch(/join token/);
      expect(peer.frames[0]?.msg.case === "error" && peer.frames[0].msg.value.code).toBe(
        ErrorCode.UNAUTHENTICATED,
      );
    }
  });

  it("closes a socket that sends a heartbeat before registering", async () => {
    const peer = await connect();
    peer.ws.send(encodeEnvelope({ msg: { case: "heartbeat", value: {} } }));
    expect((await peer.closed).code).toBe(4401);
    expect(peer.frames[0]?.msg.case === "error" && peer.frames[0].msg.value.code).toBe(
      ErrorCode.NOT_REGISTERED,
    );
  });

  it("answers random, truncated and text frames with Error frames and stays up", async () => {
    const peer = await connect();
    const next = random(42);
    const valid = registerFrame(JOIN_TOKEN);
    let sent = 0;
    for (let i = 0; i < 15; i += 1) {
      const bytes = Buffer.alloc(1 + Math.floor(next() * 512));
      for (let j = 0; j < bytes.length; j += 1) bytes[j] = Math.floor(next() * 256);
      // Byte 0x08 0x01 etc. can decode as a valid, empty-oneof envelope; those are refused too.
      peer.ws.send(bytes);
      sent += 1;
    }
    peer.ws.send(valid.subarray(0, valid.length - 5));
    peer.ws.send('{"hello": "json"}');
    sent += 2;
    await until(() => peer.frames.length >= sent || peer.ws.readyState !== WebSocket.OPEN);
    expect(peer.frames.length).toBe(sent);
    expect(
      peer.frames.every(
        (f) => f.msg.case === "error" && f.msg.value.code === ErrorCode.MALFORMED_FRAME,
      ),
    ).toBe(true);
    peer.ws.close();
    expect(await healthy()).toBe(true);
    const metrics = await (await fetch(`${server.apiUrl}/metrics`)).text();
    expect(
      Number(/llmgw_agent_frames_malformed_total (\d+)/.exec(metrics)?.[1]),
    ).toBeGreaterThanOrEqual(sent);
  });

  it("closes a socket that keeps sending garbage", async () => {
    const peer = await connect();
    for (let i = 0; i < 25; i += 1) peer.ws.send(Buffer.from([0xff, 0xff, 0xff]));
    expect((await peer.closed).code).toBe(1008);
  });

  it("refuses oversized frames without buffering them, and memory stays bounded", async () => {
    const before = rssBytes(server.process.pid);
    for (let round = 0; round < 8; round += 1) {
      const peer = await connect();
      peer.ws.send(Buffer.alloc(8 * 1024 * 1024, 1));
      // 1009 "message too big"; the close frame can be lost to a reset while we are still sending.
      expect([1009, 1006]).toContain((await peer.closed).code);
    }
    const next = random(7);
    for (let round = 0; round < 10; round += 1) {
      const peer = await connect();
      for (let i = 0; i < 19; i += 1)
        peer.ws.send(Buffer.alloc(1 + Math.floor(next() * 4096), Math.floor(next() * 256)));
      await until(() => peer.frames.length >= 19 || peer.ws.readyState !== WebSocket.OPEN);
      peer.ws.terminate();
    }
    expect(await healthy()).toBe(true);
    const growthBytes = rssBytes(server.process.pid) - before;
    // 8 × 8 MiB of refused frames must not stay resident; allow ordinary heap growth.
    expect(growthBytes).toBeLessThan(64 * 1024 * 1024);
  });
});
