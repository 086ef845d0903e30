// Hostile input on the agent port (S2): random bytes, truncated and oversized frames, text frames,
// a Register for another node, and (issue 12, item 7) a flood of unregistered sockets sending
// large malformed frames. The server must answer or close with a reason, stay up, keep its memory
// bounded, and keep answering /healthz while the flood lasts. The port speaks TLS and the
// WebSocket needs a node certificate, so the fuzzer joins first: it is a node gone bad.
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
import { joinAs, nodeTlsOptions, type NodeIdentity } from "@llmgw/testing";
import { serverSetup, startServer, type ServerHandle } from "./harness";

/** The server's limits before Register (agent-admission.ts, config.ts), as an attacker meets them. */
const REGISTER_FRAME_BYTES_MAX = 64 * 1024;
const UNREGISTERED_PER_ADDRESS_DEFAULT = 32;

let server: ServerHandle;
/** The fuzzer's own node certificate, for the node id every unregistered socket here uses. */
let fuzzer: NodeIdentity;
const identities = new Map<string, NodeIdentity>();
beforeAll(async () => {
  server = await startServer(await serverSetup());
  fuzzer = await joinAs(server, "fuzz-node");
});

async function identity(nodeId: string): Promise<NodeIdentity> {
  const known = identities.get(nodeId) ?? (await joinAs(server, nodeId));
  identities.set(nodeId, known);
  return known;
}
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

async function connect(as: NodeIdentity = fuzzer): Promise<Peer> {
  const ws = new WebSocket(`${server.agentUrl}${AGENT_WS_PATH}`, {
    ...nodeTlsOptions(server, as),
    maxPayload: 16 * 1024 * 1024,
  });
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

/** A peer that has registered with its own certificate, for the tests of a session's limits. */
async function registered(nodeId: string): Promise<Peer> {
  const peer = await connect(await identity(nodeId));
  peer.ws.send(registerFrame(nodeId));
  await until(() => peer.frames.some((f) => f.msg.case === "registerAck"));
  peer.frames.length = 0;
  return peer;
}

const registerFrame = (nodeId = "fuzz-node") =>
  encodeEnvelope({
    requestId: "r1",
    msg: { case: "register", value: { nodeId, nodeName: "fuzz" } },
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
  it("closes a socket whose Register names another node than its certificate, with a reason", async () => {
    const peer = await connect();
    peer.ws.send(registerFrame("someone-else"));
    const closed = await peer.closed;
    expect(closed.code).toBe(4401);
    expect(closed.reason).toMatch(/belongs to node fuzz-node; it cannot register as someone-else/);
    expect(peer.frames[0]?.msg.case === "error" && peer.frames[0].msg.value.code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
  });

  it("closes a socket that sends a heartbeat before registering", async () => {
    const peer = await connect();
    peer.ws.send(encodeEnvelope({ msg: { case: "heartbeat", value: {} } }));
    expect((await peer.closed).code).toBe(4401);
    expect(peer.frames[0]?.msg.case === "error" && peer.frames[0].msg.value.code).toBe(
      ErrorCode.NOT_REGISTERED,
    );
  });

  it("answers a registered agent's random, truncated and text frames with Error frames", async () => {
    const peer = await registered("fuzz-random");
    const next = random(42);
    const valid = registerFrame();
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
    // The server may also send a registered agent its desired replicas (a periodic resync) or a
    // ping in between; the answers counted here are the Error frames, one for each frame sent.
    const errors = () => peer.frames.flatMap((f) => (f.msg.case === "error" ? [f.msg.value] : []));
    await until(() => errors().length >= sent || peer.ws.readyState !== WebSocket.OPEN, 15_000);
    expect(peer.ws.readyState).toBe(WebSocket.OPEN);
    expect(errors().map((e) => e.code)).toEqual(Array(sent).fill(ErrorCode.MALFORMED_FRAME));
    peer.ws.close();
    expect(await healthy()).toBe(true);
    const metrics = await (await fetch(`${server.apiUrl}/metrics`)).text();
    expect(
      Number(/llmgw_agent_frames_malformed_total (\d+)/.exec(metrics)?.[1]),
    ).toBeGreaterThanOrEqual(sent);
  });

  it("closes a registered socket that keeps sending garbage", async () => {
    const peer = await registered("fuzz-garbage");
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

  it("closes an unregistered socket after one malformed first frame, answering it once", async () => {
    const peer = await connect();
    peer.ws.send(Buffer.from([0xff, 0xff, 0xff]));
    peer.ws.send(Buffer.from([0xff, 0xff, 0xff]));
    const closed = await peer.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toMatch(/first frame must be a Register/);
    expect(peer.frames).toHaveLength(1);
  });

  it("refuses a first frame larger than a Register may be, saying how large it may be", async () => {
    const peer = await connect();
    peer.ws.send(Buffer.alloc(REGISTER_FRAME_BYTES_MAX + 1024, 1));
    const closed = await peer.closed;
    expect(closed.code).toBe(1009);
    expect(closed.reason).toMatch(/at most 65536 bytes/);
  });

  it("cuts an unregistered socket that streams more than its byte budget", async () => {
    const peer = await connect();
    const startedMs = Date.now();
    // 200 KB frames, as in the attack: the first is cut off before it is whole.
    for (let i = 0; i < 10; i += 1) peer.ws.send(Buffer.alloc(200 * 1024, 0xff));
    expect([1009, 1006]).toContain((await peer.closed).code);
    expect(Date.now() - startedMs).toBeLessThan(5_000);
    expect(peer.frames).toHaveLength(0);
  });

  it("answers 429 with Retry-After past the unregistered sockets one address may hold", async () => {
    const idle: Peer[] = [];
    // Sockets of earlier tests may still be leaving the server, so stop at the first refusal.
    for (let i = 0; i < UNREGISTERED_PER_ADDRESS_DEFAULT; i += 1) {
      const peer = await connect().catch(() => undefined);
      if (!peer) break;
      idle.push(peer);
    }
    expect(idle.length).toBeGreaterThan(UNREGISTERED_PER_ADDRESS_DEFAULT / 2);
    const refused = await upgradeRefusal();
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.body).toMatch(/LLMGW_AGENT_UNREGISTERED_PER_ADDRESS/);
    for (const peer of idle) peer.ws.terminate();
    // Once they are gone a genuine agent from the same address gets in and registers.
    const deadlineMs = Date.now() + 5_000;
    let peer: Peer | undefined;
    while (!peer && Date.now() < deadlineMs) peer = await connect().catch(() => undefined);
    expect(peer).toBeDefined();
    peer?.ws.send(registerFrame("fuzz-node"));
    await until(() => peer?.frames.some((f) => f.msg.case === "registerAck") ?? false);
    peer?.ws.close();
  });

  it("keeps /healthz fast while 100 unauthenticated sockets send 200 KB malformed frames", async () => {
    const stopAtMs = Date.now() + 4_000;
    const attack = Array.from({ length: 100 }, () => attacker(stopAtMs));
    const latenciesMs: number[] = [];
    while (Date.now() < stopAtMs) {
      const startMs = performance.now();
      expect(await healthy()).toBe(true);
      latenciesMs.push(performance.now() - startMs);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const outcomes = (await Promise.all(attack)).flat();
    latenciesMs.sort((a, b) => a - b);
    const medianMs = latenciesMs[Math.floor(latenciesMs.length / 2)] ?? Infinity;
    // The issue measured about 900 ms; the bound is generous so that a loaded two-core runner
    // does not fail it, and the checks below are what catch the hole coming back.
    expect(medianMs).toBeLessThan(1_000);
    // Over the per-address cap, the flood is turned away at the upgrade.
    expect(outcomes.some((o) => o.kind === "refused")).toBe(true);
    const admitted = outcomes.filter((o) => o.kind === "closed");
    expect(admitted.length).toBeGreaterThan(0);
    // Each admitted socket is cut once past its budget, not left until the 10 s register timeout,
    // and none of its garbage was ever decoded and answered.
    for (const o of admitted) expect(o.openMs).toBeLessThan(5_000);
    expect(admitted.every((o) => o.frames === 0)).toBe(true);
  });
});

type Outcome = { kind: "refused" } | { kind: "closed"; openMs: number; frames: number };

/** One attacker: connects, streams 200 KB garbage frames until closed, and again until stopAtMs. */
async function attacker(stopAtMs: number): Promise<Outcome[]> {
  const frame = Buffer.alloc(200 * 1024, 0xfe);
  const outcomes: Outcome[] = [];
  while (Date.now() < stopAtMs) {
    // A zero mask spares this process the masking, so the flood loads the server, not the test.
    const ws = new WebSocket(`${server.agentUrl}${AGENT_WS_PATH}`, {
      ...nodeTlsOptions(server, fuzzer),
      generateMask: (mask) => mask.fill(0),
    });
    outcomes.push(
      await new Promise<Outcome>((resolve) => {
        let openedMs = 0;
        let frames = 0;
        let pump: NodeJS.Timeout | undefined;
        ws.on("message", () => (frames += 1));
        ws.on("error", () => undefined);
        ws.on("open", () => {
          openedMs = Date.now();
          pump = setInterval(() => {
            if (ws.readyState === WebSocket.OPEN && ws.bufferedAmount < 1_000_000) ws.send(frame);
          }, 5);
        });
        ws.on("close", () => {
          clearInterval(pump);
          resolve(
            openedMs
              ? { kind: "closed", openMs: Date.now() - openedMs, frames }
              : { kind: "refused" },
          );
        });
      }),
    );
  }
  return outcomes;
}

/** Opens a socket the server is expected to refuse at the upgrade, and says how. */
async function upgradeRefusal(): Promise<{ status: number; retryAfter?: string; body: string }> {
  const ws = new WebSocket(`${server.agentUrl}${AGENT_WS_PATH}`, nodeTlsOptions(server, fuzzer));
  ws.on("error", () => undefined);
  return new Promise((resolve, reject) => {
    ws.on("open", () => reject(new Error("the upgrade was accepted")));
    ws.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"], body });
        ws.terminate();
      });
    });
  });
}
