// Failover against real `ws` servers on loopback: a control plane that accepts and registers the
// agent, then goes silent (frozen: the socket stays open, nothing answers) is left within
// idle + ping timeout for the next address; a healthy one that answers pings is never left.
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { AGENT_WS_PATH, decodeEnvelope, encodeEnvelope, type Envelope } from "@llmgw/proto";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { AgentConnection } from "./connection";
import { buildHeartbeat, buildRegister, simulatedInventory } from "./inventory";
import { createLogger, LogRing } from "./log-ring";

const IDLE_MS = 150;
const PING_TIMEOUT_MS = 100;

interface FakeControlPlane {
  url: string;
  server: WebSocketServer;
  sockets: WebSocket[];
  frames: Envelope[];
  /** A frozen process: frames are read by the kernel but never answered. */
  frozen: boolean;
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

/** Acks Register (naming agentUrls) and answers Ping with Pong, until frozen. */
async function startControlPlane(agentUrls: () => string[] = () => []): Promise<FakeControlPlane> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0, path: AGENT_WS_PATH });
  servers.push(server);
  await once(server, "listening");
  const plane: FakeControlPlane = {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    sockets: [],
    frames: [],
    frozen: false,
  };
  server.on("connection", (socket) => {
    plane.sockets.push(socket);
    socket.on("message", (data) => {
      const envelope = decodeEnvelope(new Uint8Array(data as Buffer));
      plane.frames.push(envelope);
      if (plane.frozen) return;
      const { msg } = envelope;
      if (msg.case === "register")
        socket.send(
          encodeEnvelope({
            requestId: envelope.requestId,
            msg: {
              case: "registerAck",
              value: { nodeId: msg.value.nodeId, heartbeatIntervalMs: 50, agentUrls: agentUrls() },
            },
          }),
        );
      if (msg.case === "ping")
        socket.send(
          encodeEnvelope({
            requestId: envelope.requestId,
            msg: { case: "pong", value: { sentAtMs: msg.value.sentAtMs } },
          }),
        );
    });
  });
  return plane;
}

function startAgent(
  serverUrls: string[],
  saved: (readonly string[])[] = [],
  random: () => number = () => 0,
) {
  const ring = new LogRing();
  const logger = createLogger({ ring, write: () => {}, nowMs: Date.now });
  const config = { serverUrls, nodeName: "sim-node-1", labels: {}, dataDir: "/unused" };
  const inventory = simulatedInventory("h100x8", config.nodeName, 7);
  const connection = new AgentConnection({
    serverUrls,
    register: () => buildRegister(config, "node-id-1", inventory),
    heartbeat: () => buildHeartbeat(inventory),
    logger,
    random,
    nowMs: Date.now,
    idleMs: IDLE_MS,
    pingTimeoutMs: PING_TIMEOUT_MS,
    onServerUrls: (urls) => saved.push(urls),
  });
  connections.push(connection);
  connection.start();
  return { connection, ring };
}

async function waitFor(what: string, probe: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const registers = (plane: FakeControlPlane) =>
  plane.frames.filter((frame) => frame.msg.case === "register").length;

describe("AgentConnection failover", () => {
  it("leaves a control plane that went silent within idle + ping for the second address", async () => {
    const first = await startControlPlane();
    const second = await startControlPlane();
    const { connection, ring } = startAgent([first.url, second.url]);
    await waitFor("registered on the first", () => connection.serverUrl === first.url);

    first.frozen = true;
    const frozenAtMs = Date.now();
    await waitFor("registered on the second", () => connection.serverUrl === second.url);
    const tookMs = Date.now() - frozenAtMs;

    // The agent's heartbeats kept going out, yet only the server's frames count as life.
    expect(first.frames.some((frame) => frame.msg.case === "ping")).toBe(true);
    expect(tookMs).toBeGreaterThanOrEqual(IDLE_MS);
    expect(tookMs).toBeLessThan(IDLE_MS + PING_TIMEOUT_MS + 500);
    // The frozen peer never answers a close handshake: the socket is dropped anyway.
    await waitFor("socket gone on the first", () =>
      first.sockets.every((socket) => socket.readyState === WebSocket.CLOSED),
    );
    const lines = ring.snapshot();
    expect(lines.some((line) => line.includes(`no frame from ${first.url} for 0.25 s`))).toBe(true);
    // The session had worked: the backoff started again (first attempt), not escalated.
    const reconnects = lines.filter((line) => line.includes(" reconnecting "));
    expect(reconnects.map((line) => /attempt=(\d+)/.exec(line)?.[1])).toEqual(["1"]);
  });

  it("never leaves a healthy control plane that answers its pings", async () => {
    const plane = await startControlPlane();
    const { connection, ring } = startAgent([plane.url]);
    await waitFor("registered", () => connection.serverUrl === plane.url);
    // Several idle + ping periods with only the agent's heartbeats and the server's pongs.
    await new Promise((resolve) => setTimeout(resolve, 4 * (IDLE_MS + PING_TIMEOUT_MS)));
    expect(plane.frames.filter((frame) => frame.msg.case === "ping").length).toBeGreaterThan(2);
    expect(registers(plane)).toBe(1);
    const lines = ring.snapshot();
    expect(lines.some((line) => line.includes("server silent"))).toBe(false);
    // The pong is expected, not an unknown frame to warn about.
    expect(lines.some((line) => line.includes("frame ignored"))).toBe(false);
    expect(connection.state).toBe("registered");
  });

  it("learns the control planes from RegisterAck, saves them and fails over to one it learned", async () => {
    const second = await startControlPlane();
    const first = await startControlPlane(() => [
      first.url,
      second.url,
      "not a url",
      "https://wrong-scheme.example",
    ]);
    const saved: (readonly string[])[] = [];
    const { connection } = startAgent([first.url], saved);
    await waitFor("registered on the first", () => connection.serverUrl === first.url);
    expect(connection.knownServerUrls).toEqual([first.url, second.url]);
    expect(saved).toEqual([[first.url, second.url]]);

    first.frozen = true;
    await waitFor("registered on the learned second", () => connection.serverUrl === second.url);
    // The second names nothing: the list stays as it was, nothing saved again.
    expect(connection.knownServerUrls).toEqual([first.url, second.url]);
    expect(saved).toHaveLength(1);
  });

  it("keeps retrying quickly while standbys answer 503, so it is back soon after one leads", async () => {
    // Both control planes refuse agents as standbys do, until the second takes the lease.
    let leaderUrl = "";
    const standbys = await Promise.all([startControlPlane(), startControlPlane()]);
    for (const plane of standbys)
      plane.server.options.verifyClient = (_info, answer) =>
        plane.url === leaderUrl ? answer(true) : answer(false, 503, "this control plane stands by");
    const [first, second] = standbys;
    if (!first || !second) throw new Error("two control planes");
    // The longest jitter: without the standby rule the waits double to 4 s and beyond.
    const { connection, ring } = startAgent([first.url, second.url], [], () => 0.999);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(connection.state).not.toBe("registered");
    leaderUrl = second.url;
    const ledAtMs = Date.now();
    await waitFor(
      "registered on the new leader",
      () => connection.serverUrl === second.url,
      10_000,
    );
    expect(Date.now() - ledAtMs).toBeLessThan(2_500);
    expect(ring.snapshot().some((line) => line.includes("a standby answered"))).toBe(true);
  });
});
