// The agent's connection against a real `ws` server on loopback, speaking the real protobuf frames.
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import {
  AGENT_WS_PATH,
  decodeEnvelope,
  encodeEnvelope,
  type Envelope,
  type EnvelopeInit,
  ReplicaPhase,
} from "@llmgw/proto";
import { must } from "@llmgw/domain";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { AgentConnection } from "./connection";
import { buildHeartbeat, buildRegister, simulatedInventory } from "./inventory";
import { createLogger, LogRing } from "./log-ring";
import type { ReplicaStatusInit } from "./replicas/replica-deps";

/** Every frame the server received, per connection, in order. */
interface ServerSide {
  url: string;
  server: WebSocketServer;
  sockets: WebSocket[];
  frames: Envelope[][];
}

const servers: WebSocketServer[] = [];
const connections: AgentConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.stop()));
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function startServer(): Promise<ServerSide> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0, path: AGENT_WS_PATH });
  servers.push(server);
  await once(server, "listening");
  const side: ServerSide = {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    sockets: [],
    frames: [],
  };
  server.on("connection", (socket) => {
    const frames: Envelope[] = [];
    side.sockets.push(socket);
    side.frames.push(frames);
    socket.on("message", (data) => frames.push(decodeEnvelope(new Uint8Array(data as Buffer))));
  });
  return side;
}

/** Polls for a condition with a deadline instead of sleeping a fixed time. */
async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function send(socket: WebSocket, init: EnvelopeInit): void {
  socket.send(encodeEnvelope(init));
}

function startAgent(
  serverUrls: string[],
  beat?: Pick<ConstructorParameters<typeof AgentConnection>[0], "heartbeat" | "replicaLevel">,
) {
  const ring = new LogRing();
  const logger = createLogger({ ring, write: () => {}, nowMs: Date.now });
  const config = {
    serverUrls,
    nodeName: "sim-node-1",
    labels: { rack: "r1" },
    dataDir: "/unused",
  };
  const inventory = simulatedInventory("h100x8", config.nodeName, 7);
  const connection = new AgentConnection({
    serverUrls,
    register: () => buildRegister(config, "node-id-1", inventory),
    heartbeat: () => buildHeartbeat(inventory),
    ...beat,
    logger,
    // Zero jitter: every backoff delay is 0 ms, so reconnects happen at once in the test.
    random: () => 0,
    nowMs: Date.now,
  });
  connections.push(connection);
  connection.start();
  return { connection, ring };
}

describe("AgentConnection against a real WebSocket server", () => {
  it("registers, heartbeats, answers ping, survives refusals and reconnects after a close", async () => {
    const side = await startServer();
    const { connection, ring } = startAgent([side.url]);

    // Two refused attempts first: the server closes with 4401 before any ack.
    for (const attempt of [0, 1]) {
      const register = await waitFor("register", () => side.frames[attempt]?.[0]);
      expect(register.msg.case).toBe("register");
      must(side.sockets[attempt], `socket ${attempt}`).close(4401, "join token not accepted");
    }
    await waitFor("refusal logged", () =>
      ring
        .snapshot()
        .some((line) => line.includes("refused by server") && line.includes("code=4401")),
    );

    const registerFrame = await waitFor("third register", () => side.frames[2]?.[0]);
    expect(registerFrame.msg.case).toBe("register");
    if (registerFrame.msg.case !== "register") throw new Error("unreachable");
    const register = registerFrame.msg.value;
    expect(register).toMatchObject({
      simulated: true,
      simulationProfile: "h100x8",
      nodeName: "sim-node-1",
      nodeId: "node-id-1",
      labels: { rack: "r1" },
    });
    expect(register.hardware?.gpus).toHaveLength(8);
    expect(register.hardware?.gpus[0]?.name).toBe("NVIDIA H100 80GB HBM3");

    const socket = must(side.sockets[2], "socket 2");
    const frames = must(side.frames[2], "the frames of socket 2");
    send(socket, {
      requestId: registerFrame.requestId,
      msg: { case: "registerAck", value: { nodeId: "node-id-1", heartbeatIntervalMs: 100 } },
    });
    const heartbeats = () => frames.filter((frame) => frame.msg.case === "heartbeat");
    await waitFor("three heartbeats", () => heartbeats().length >= 3);
    const beat = must(heartbeats()[0], "a heartbeat");
    if (beat.msg.case !== "heartbeat") throw new Error("unreachable");
    expect(beat.msg.value.gpus).toHaveLength(8);
    expect(beat.msg.value.gpus[0]?.uuid).toBe(register.hardware?.gpus[0]?.uuid);
    expect(beat.msg.value.cpuUtilizationPercent).toBeDefined();
    expect(Number(beat.msg.value.sentAtMs)).toBeGreaterThan(Date.now() - 60_000);
    expect(connection.state).toBe("registered");

    send(socket, { requestId: "ping-42", msg: { case: "ping", value: { sentAtMs: 1n } } });
    const pong = await waitFor("pong", () => frames.find((frame) => frame.msg.case === "pong"));
    expect(pong.requestId).toBe("ping-42");

    send(socket, { msg: { case: "error", value: { code: 4, message: "no such request" } } });
    await waitFor("error frame logged", () =>
      ring
        .snapshot()
        .some((line) => line.includes("server error") && line.includes("code=UNSUPPORTED")),
    );

    // The server goes away: heartbeats stop on that socket and the agent registers again,
    // with its backoff started again because the session had worked.
    socket.close(1001, "server restarting");
    await waitFor("register after close", () => side.frames[3]?.[0]?.msg.case === "register");
    const reconnects = ring.snapshot().filter((line) => line.includes(" reconnecting "));
    expect(reconnects.map((line) => /attempt=(\d+)/.exec(line)?.[1])).toEqual(["1", "2", "1"]);
    const beatsAfterClose = heartbeats().length;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(heartbeats().length).toBe(beatsAfterClose);

    await connection.stop();
    expect(connection.state).toBe("stopped");
    await waitFor(
      "socket closed on the server",
      () => side.sockets[3]?.readyState === WebSocket.CLOSED,
    );
  });

  it("sends the replicas' level as it is when the beat leaves, not as it was before its sampling", async () => {
    const side = await startServer();
    let level: ReplicaStatusInit[] = [{ replicaId: "r1", phase: ReplicaPhase.STARTING }];
    let sampling: (() => void) | undefined;
    const { connection } = startAgent([side.url], {
      // The sampling (nvidia-smi on a real node) takes a while; the replica is ready meanwhile.
      heartbeat: async () => {
        await new Promise<void>((resolve) => (sampling = resolve));
        return { gpus: [] };
      },
      replicaLevel: () => level,
    });
    const registerFrame = await waitFor("register", () => side.frames[0]?.[0]);
    send(must(side.sockets[0], "socket"), {
      requestId: registerFrame.requestId,
      msg: { case: "registerAck", value: { nodeId: "node-id-1", heartbeatIntervalMs: 100 } },
    });
    await waitFor("a heartbeat sampling", () => sampling !== undefined);
    level = [{ replicaId: "r1", phase: ReplicaPhase.READY }];
    sampling?.();
    const beat = await waitFor("the heartbeat", () =>
      side.frames[0]?.find((frame) => frame.msg.case === "heartbeat"),
    );
    if (beat.msg.case !== "heartbeat") throw new Error("unreachable");
    expect(beat.msg.value.replicas.map((r) => [r.replicaId, r.phase])).toEqual([
      ["r1", ReplicaPhase.READY],
    ]);
    await connection.stop();
  });

  it("tries the addresses in turn when the first is down", async () => {
    const dead = await startServer();
    const deadUrl = dead.url;
    await new Promise((resolve) => dead.server.close(resolve));
    servers.splice(servers.indexOf(dead.server), 1);
    const live = await startServer();
    const { ring } = startAgent([deadUrl, live.url]);
    const register = await waitFor("register on the second address", () => live.frames[0]?.[0]);
    expect(register.msg.case).toBe("register");
    expect(
      ring.snapshot().some((line) => line.includes("connection error") && line.includes(deadUrl)),
    ).toBe(true);
  });

  it("stop() while connecting leaves nothing running", async () => {
    const side = await startServer();
    const { connection } = startAgent([side.url]);
    await connection.stop();
    expect(connection.state).toBe("stopped");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(side.server.clients.size).toBe(0);
  });
});
