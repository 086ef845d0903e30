import { ENGINE_NAMES } from "@llmgw/engines";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeEnvelope, encodeEnvelope, type Envelope } from "@llmgw/proto";
import { afterEach, describe, expect, it } from "vitest";
import { startTlsAgentServer } from "../test/tls-server";
import { parseConfig } from "./config";
import { LogRing } from "./log-ring";
import { runAgent } from "./main";

const SECOND_PLANE = "wss://cp-b.example:8081";
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("runAgent", () => {
  it("registers a simulated node over mutual TLS with its certificate and resolves once aborted, closing the socket", async () => {
    const server = await startTlsAgentServer();
    cleanups.push(() => server.close());
    const frames: Envelope[] = [];
    let closed = false;
    server.wss.on("connection", (socket) => {
      socket.on("message", (data) => {
        const frame = decodeEnvelope(new Uint8Array(data as Buffer));
        frames.push(frame);
        // The ack names a second control plane: the agent must remember it in its data dir.
        if (frame.msg.case === "register")
          socket.send(
            encodeEnvelope({
              requestId: frame.requestId,
              msg: {
                case: "registerAck",
                value: { nodeId: frame.msg.value.nodeId, agentUrls: [server.url, SECOND_PLANE] },
              },
            }),
          );
      });
      socket.on("close", () => (closed = true));
    });
    const dataDir = await mkdtemp(join(tmpdir(), "llmgw-agent-main-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await server.enrol(dataDir, "node-main-test");
    const argv = [
      "--server",
      server.url,
      "--simulate",
      "l40sx4",
      "--name",
      "sim-7",
      "--data-dir",
      dataDir,
    ];
    const env = {};
    const abort = new AbortController();
    const ring = new LogRing();
    const running = runAgent(argv, {
      loadConfig: (args) =>
        parseConfig(args, { env, hostname: () => "unused", readTextFile: () => "" }),
      writeLog: () => {},
      signal: abort.signal,
      ring,
    });

    const deadline = Date.now() + 5000;
    while (frames.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const register = frames[0]?.msg;
    if (register?.case !== "register") throw new Error(`expected register, got ${register?.case}`);
    const nodeId = (await readFile(join(dataDir, "node-id"), "utf8")).trim();
    expect(register.value).toMatchObject({
      nodeId,
      nodeName: "sim-7",
      simulated: true,
      simulationProfile: "l40sx4",
      engines: [...ENGINE_NAMES],
    });
    expect(nodeId).toBe("node-main-test");
    expect(server.peers).toEqual(["node-main-test"]);
    expect(register.value.joinToken).toBe("");
    expect(register.value.hardware?.gpus.map((gpu) => gpu.name)).toEqual(
      Array(4).fill("NVIDIA L40S"),
    );

    const servers = join(dataDir, "servers");
    const saved = async () => (await readFile(servers, "utf8").catch(() => "")).trim();
    const savedBy = Date.now() + 5000;
    while ((await saved()) === "" && Date.now() < savedBy)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await saved()).split("\n")).toEqual([server.url, SECOND_PLANE]);

    abort.abort();
    await running;
    expect(ring.snapshot().at(-1)).toMatch(/ info stopped$/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
  });

  it("refuses to start without a certificate, saying how to join", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "llmgw-agent-main-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await expect(
      runAgent(["--server", "wss://127.0.0.1:1", "--data-dir", dataDir], {
        writeLog: () => {},
        loadConfig: (args) =>
          parseConfig(args, { env: {}, hostname: () => "h", readTextFile: () => "" }),
      }),
    ).rejects.toThrow(/holds no certificate.*llmgw agent join wss:\/\/HOST:PORT/);
  });

  it("fails with the config error before touching anything", async () => {
    await expect(runAgent(["--simulate", "nope"], { writeLog: () => {} })).rejects.toThrow(
      /--simulate: unknown profile/,
    );
  });
});
