// The whole agent (runAgent, --simulate) against a WebSocket server stub speaking the real frames
// over mutual TLS (a test CA, the node enrolled in its data dir as a join leaves it):
// DesiredReplicas → ReplicaStatus frames up to READY (with fetch progress for an http source),
// heartbeats carrying every replica, logs and reclaim answered by request id, StopReplica.
import { must } from "@llmgw/domain";
import { ENGINE_NAMES } from "@llmgw/engines";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  decodeEnvelope,
  encodeEnvelope,
  ReplicaPhase,
  type Envelope,
  type EnvelopeInit,
} from "@llmgw/proto";
import { waitFor } from "@llmgw/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { startTlsAgentServer } from "../test/tls-server";
import { cacheName } from "./cache/layout";
import { parseConfig } from "./config";
import { LogRing } from "./log-ring";
import { runAgent } from "./main";
import { realProcessOps } from "./replicas/engine-process";

const KEY_A = "rk-a-very-secret-key-0001";
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function weightsServer(): Promise<string> {
  const body = Buffer.alloc(256 * 1024, 1);
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-length": String(body.length) });
    let offset = 0;
    const next = () =>
      offset >= body.length
        ? response.end()
        : (response.write(body.subarray(offset, (offset += 32 * 1024))), setTimeout(next, 150));
    next();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/tiny-q4.gguf`;
}

function frames(list: Envelope[], kind: Envelope["msg"]["case"]) {
  return list.filter((frame) => frame.msg.case === kind);
}

describe("agent replicas over the WebSocket", () => {
  it("runs DesiredReplicas to READY, reports them in heartbeats, answers logs and reclaim, stops on request", async () => {
    const source = await weightsServer();
    const server = await startTlsAgentServer();
    cleanups.push(() => server.close());
    const received: Envelope[] = [];
    let socket: WebSocket | undefined;
    server.wss.on("connection", (ws) => {
      socket = ws;
      ws.on("message", (data) => received.push(decodeEnvelope(new Uint8Array(data as Buffer))));
    });
    const send = (init: EnvelopeInit) =>
      must(socket, "the agent's connection").send(encodeEnvelope(init));

    const dataDir = mkdtempSync(path.join(tmpdir(), "llmgw-agent-e2e-"));
    await server.enrol(dataDir, "sim-1-node");
    const argv = [
      "--server",
      server.url,
      "--simulate",
      "h100x8",
      "--name",
      "sim-1",
      "--data-dir",
      dataDir,
      "--stop-engines-on-exit",
    ];
    const abort = new AbortController();
    const ring = new LogRing();
    const running = runAgent(argv, {
      loadConfig: (args) =>
        parseConfig(args, { env: {}, hostname: () => "h", readTextFile: () => "" }),
      writeLog: () => {},
      signal: abort.signal,
      ring,
      engineEnv: { PATH: "/usr/local/bin:/usr/bin:/bin" },
    });
    cleanups.push(async () => {
      abort.abort();
      await running.catch(() => {});
    });

    const register = await waitFor(() => frames(received, "register")[0], { what: "register" });
    if (register.msg.case !== "register") throw new Error("unreachable");
    expect(register.msg.value).toMatchObject({
      engines: [...ENGINE_NAMES],
      features: [
        "replicas",
        "logs",
        "log-search",
        "reclaim",
        "upgrade",
        "engine-build",
        "doctor",
        "fabric-test",
      ],
      replicas: [],
    });
    send({
      requestId: register.requestId,
      msg: { case: "registerAck", value: { nodeId: "n1", heartbeatIntervalMs: 200 } },
    });
    const common = {
      model: "tiny",
      engine: "sim",
      startTimeoutMs: 30_000,
      args: ["--ready-after-ms", "200"],
    };
    send({
      msg: {
        case: "desiredReplicas",
        value: {
          replicas: [
            { ...common, replicaId: "r-a", source, apiKey: KEY_A, servedModelName: "tiny" },
            {
              ...common,
              replicaId: "r-b",
              source: "Qwen/Qwen2.5-0.5B",
              engine: "vllm",
              gpuIndexes: [3],
            },
          ],
        },
      },
    });

    const statusesOf = (id: string) =>
      frames(received, "replicaStatus").flatMap((frame) =>
        frame.msg.case === "replicaStatus" && frame.msg.value.replicaId === id
          ? [frame.msg.value]
          : [],
      );
    await waitFor(
      () =>
        ["r-a", "r-b"].every((id) =>
          statusesOf(id).some((status) => status.phase === ReplicaPhase.READY),
        ),
      { timeoutMs: 40_000, what: "both READY" },
    );
    const phasesA = statusesOf("r-a").map((status) => ReplicaPhase[status.phase]);
    expect(phasesA[0]).toBe("FETCHING");
    expect(phasesA.slice(-2)).toEqual(["STARTING", "READY"]);
    const progress = statusesOf("r-a").flatMap((status) =>
      status.fetchProgress === undefined ? [] : [status.fetchProgress],
    );
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toBe(1);
    const readyB = must(statusesOf("r-b").at(-1), "a status of r-b");
    expect(readyB).toMatchObject({ engine: "vllm", gpuIndexes: [3], host: "127.0.0.1" });
    expect(readyB.message).toContain("simulated node: sim-engine runs in place of vllm");

    const beat = await waitFor(
      () => {
        const last = frames(received, "heartbeat").at(-1);
        return last?.msg.case === "heartbeat" &&
          last.msg.value.replicas.every((r) => r.phase === ReplicaPhase.READY) &&
          last.msg.value.replicas.length === 2
          ? last.msg.value
          : undefined;
      },
      { what: "heartbeat with both replicas READY" },
    );
    expect(beat.replicas.map((replica) => replica.replicaId).sort()).toEqual(["r-a", "r-b"]);

    send({
      requestId: "logs-1",
      msg: { case: "logsRequest", value: { source: "r-a", lines: 20 } },
    });
    send({
      requestId: "logs-2",
      msg: { case: "logsRequest", value: { source: "nope", lines: 20 } },
    });
    send({
      requestId: "reclaim-1",
      msg: { case: "reclaimRequest", value: { wantedSources: [], collect: true } },
    });
    const reply = (id: string) =>
      waitFor(() => received.find((frame) => frame.requestId === id), { what: id });
    const logs = (await reply("logs-1")).msg;
    if (logs.case !== "logsReply") throw new Error(`expected logsReply, got ${logs.case}`);
    expect(logs.value.lines.join("\n")).toContain("sim-engine: listening");
    expect(logs.value.sources.sort()).toEqual(["agent", "r-a", "r-b"]);
    const unknown = (await reply("logs-2")).msg;
    expect(unknown.case === "logsReply" && unknown.value.error).toBe(
      'no log source "nope" on this node; known sources: agent, r-a, r-b',
    );
    const reclaim = (await reply("reclaim-1")).msg;
    if (reclaim.case !== "reclaimReply") throw new Error("expected reclaimReply");
    expect(reclaim.value.entries).toEqual([
      expect.objectContaining({
        cacheName: cacheName(source),
        removed: false,
        refused: "in use by replica r-a on this node",
      }),
    ]);
    expect(ring.snapshot().join("\n")).not.toContain(KEY_A);

    const pidB = readyB.pid;
    send({ msg: { case: "stopReplica", value: { replicaId: "r-b", reason: "scaled down" } } });
    await waitFor(() => statusesOf("r-b").at(-1)?.phase === ReplicaPhase.STOPPED, {
      what: "r-b STOPPED",
    });
    expect(statusesOf("r-b").at(-1)?.message).toBe("stopped: scaled down");
    expect(realProcessOps.isGroupAlive(pidB)).toBe(false);
    const pidA = must(statusesOf("r-a").at(-1), "a status of r-a").pid;
    expect(
      JSON.parse(readFileSync(path.join(dataDir, "replicas.json"), "utf8")).replicas.map(
        (r: { pid: number }) => r.pid,
      ),
    ).toEqual([pidA]);

    abort.abort();
    await running;
    expect(realProcessOps.isGroupAlive(pidA)).toBe(false);
  });
});
