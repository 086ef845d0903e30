// A node agent that starts no engine: it registers one simulated card per benchmark model over the
// real agent protocol (mutual TLS with a node certificate, protobuf frames), and when the control plane places a
// replica it reports it ready at the address of an engine the benchmark already runs. The server,
// its placement, replica book, keys, limits and /v1 gateway are all the real ones; only the engine
// process is the benchmark's, so the gateway and the direct column hit the very same engine.
import {
  AGENT_WS_PATH,
  ReplicaPhase,
  decodeEnvelope,
  encodeEnvelope,
  type EnvelopeInit,
  type ReplicaStatus,
  type StartReplica,
} from "@llmgw/proto";
import WebSocket from "ws";

export interface StandInAgentOptions {
  agentUrl: string;
  /** The cluster CA and the certificate issued to `bench-<nodeName>` (joined by the caller). */
  tls: { ca: string; cert: string; key: string };
  nodeName: string;
  /** Catalog model name → the engine's port on 127.0.0.1. */
  engines: ReadonlyMap<string, number>;
  /** Where any other model's replica is reported to listen; absent: such a replica fails. */
  otherModelsPort?: number;
  /** Simulated cards to register; one per engine when absent. */
  cardCount?: number;
}

type StatusInit = Omit<ReplicaStatus, "$typeName" | "$unknown">;
const GIB = 2n ** 30n;

export interface StandInAgent {
  close(): void;
}

/** A stand-in keeps no logs; it answers with one line that says so (the console's logs page opens). */
function logsReply(nodeName: string) {
  const line = `${nodeName}: a stand-in agent (simulated) that runs no engine and keeps no logs`;
  return {
    source: "agent",
    lines: [line],
    sources: ["agent"],
    error: "",
    records: [],
    linesSearched: 0,
  };
}

export async function startStandInAgent(options: StandInAgentOptions): Promise<StandInAgent> {
  const ws = new WebSocket(`${options.agentUrl}${AGENT_WS_PATH}`, {
    ...options.tls,
    perMessageDeflate: false,
  });
  const replicas = new Map<string, StatusInit>();
  const send = (init: EnvelopeInit) => {
    if (ws.readyState === ws.OPEN) ws.send(encodeEnvelope(init));
  };
  const statusOf = (spec: StartReplica): StatusInit => {
    const port = options.engines.get(spec.model) ?? options.otherModelsPort;
    return {
      replicaId: spec.replicaId,
      model: spec.model,
      phase: port === undefined ? ReplicaPhase.FAILED : ReplicaPhase.READY,
      message: port === undefined ? `the benchmark runs no engine for ${spec.model}` : "",
      host: "127.0.0.1",
      port: port ?? 0,
      leaderAddress: "",
      changedAtMs: BigInt(Date.now()),
      engine: spec.engine,
      gpuIndexes: [...spec.gpuIndexes],
      pid: 0,
      exitSignal: "",
    };
  };
  const start = (spec: StartReplica) => {
    const status = statusOf(spec);
    replicas.set(spec.replicaId, status);
    send({ msg: { case: "replicaStatus", value: status } });
  };
  let heartbeat: NodeJS.Timeout | undefined;
  ws.on("message", (data: Buffer) => {
    const { requestId, msg } = decodeEnvelope(new Uint8Array(data));
    if (msg.case === "registerAck") {
      heartbeat = setInterval(
        () =>
          send({
            msg: {
              case: "heartbeat",
              value: { sentAtMs: BigInt(Date.now()), replicas: [...replicas.values()] },
            },
          }),
        msg.value.heartbeatIntervalMs,
      );
    } else if (msg.case === "startReplica") start(msg.value);
    else if (msg.case === "desiredReplicas") msg.value.replicas.forEach(start);
    else if (msg.case === "stopReplica") {
      const status = replicas.get(msg.value.replicaId);
      replicas.delete(msg.value.replicaId);
      if (status)
        send({ msg: { case: "replicaStatus", value: { ...status, phase: ReplicaPhase.STOPPED } } });
    } else if (msg.case === "ping")
      send({ msg: { case: "pong", value: { sentAtMs: msg.value.sentAtMs } } });
    else if (msg.case === "logsRequest")
      send({ requestId, msg: { case: "logsReply", value: logsReply(options.nodeName) } });
  });
  ws.on("close", () => clearInterval(heartbeat));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const cards = Array.from({ length: options.cardCount ?? options.engines.size }, (_, index) => ({
    index,
    uuid: `GPU-bench-${options.nodeName}-${index}`,
    name: "NVIDIA H100 80GB HBM3",
    memoryBytesTotal: 80n * GIB,
    computeCapability: "9.0",
    pciBusId: `00000000:${(index + 1).toString(16).padStart(2, "0")}:00.0`,
  }));
  send({
    requestId: "register",
    msg: {
      case: "register",
      value: {
        nodeId: `bench-${options.nodeName}`,
        nodeName: options.nodeName,
        agentVersion: "bench",
        features: ["replicas", "logs"],
        engines: ["sim"],
        simulated: true,
        simulationProfile: "bench",
        hardware: {
          gpus: cards,
          cpu: { model: "bench", cores: 2 },
          memoryBytesTotal: 64n * GIB,
          diskBytesTotal: 1024n * GIB,
          diskBytesFree: 1024n * GIB,
          os: "linux (simulated)",
          arch: "x64",
        },
      },
    },
  });
  return {
    close() {
      clearInterval(heartbeat);
      ws.close();
    },
  };
}
