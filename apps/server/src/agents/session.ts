// One agent connection: refuses everything until a Register arrives for the node its client
// certificate names, then records heartbeats and answers pings. Persistence happens off the
// socket handler.
import { ErrorCode, type Envelope, type Register, type ReplicaStatus } from "@llmgw/proto";
import type { FleetRegistry } from "../fleet/registry";
import { CLOSE_UNAUTHENTICATED, type AgentSocket } from "./agent-socket";
import type { NodeLinks } from "./node-links";

export interface AgentSessionHandler {
  isRegistered(): boolean;
  onEnvelope(envelope: Envelope): void;
  onClose(): void;
}

export interface SessionDeps {
  heartbeatIntervalMs: number;
  serverVersion: string;
  registry: FleetRegistry;
  nowMs(): number;
  /**
   * Writes the node's registration to the store (in a batch). The RegisterAck does not wait for it:
   * the API shows a live node from its registration until it is written. A failed write is logged
   * by the writer (the node is live; the next registration writes it again).
   */
  saveRegistration?(register: Register): Promise<void>;
  /** Once the registration is written (or failed to be): the node is live and acknowledged. */
  onRegistered(register: Register): void;
  onDisconnected(nodeId: string): void;
  log(line: string): void;
  /** The control planes' agent-port addresses, named in RegisterAck so agents can fail over. */
  agentUrls?(): readonly string[];
  /** Where the server's own requests to this node go out and their replies come back. */
  links?: NodeLinks;
  /** Replica phases, from ReplicaStatus frames and inside every Heartbeat. */
  onReplicaReport?(
    nodeId: string,
    replicas: readonly ReplicaStatus[],
    origin: "status" | "heartbeat",
  ): void;
}

let nextSessionId = 1;

export function createAgentSession(socket: AgentSocket, deps: SessionDeps): AgentSessionHandler {
  const sessionId = nextSessionId++;
  let nodeId: string | null = null;
  let isClosed = false;

  const nameOf = (id: string) => deps.registry.get(id)?.register.nodeName ?? id;
  const refuse = (code: ErrorCode, message: string) =>
    socket.send({ msg: { case: "error", value: { code, message } } });

  const register = (envelope: Envelope, msg: Register) => {
    // The certificate is the node's identity: Register.join_token is no longer read.
    if (msg.nodeId !== socket.certificateNodeId) {
      const why = `the certificate belongs to node ${socket.certificateNodeId}; it cannot register as ${msg.nodeId}`;
      deps.log(`agent from ${socket.remoteAddress} refused: ${why}`);
      refuse(ErrorCode.UNAUTHENTICATED, why);
      socket.close(CLOSE_UNAUTHENTICATED, why);
      return;
    }
    const invalid = validateRegister(msg);
    if (invalid) {
      refuse(ErrorCode.MALFORMED_FRAME, invalid);
      socket.close(1008, invalid);
      return;
    }
    nodeId = msg.nodeId;
    deps.registry.connect(msg, sessionId, deps.nowMs());
    deps.registry.sources.accept(msg.nodeName, msg.sourceConfigs, deps.log);
    deps.links?.attach(nodeId, sessionId, socket);
    // Acknowledged at once: the node is live, and the API shows it from what it registered with
    // until its batched write lands (nodes-service). Waiting for the write made every agent of a
    // reconnect storm wait for the batches queued before its own (session 4: 106 of 500 back
    // within 10 s, against 369 acknowledging first).
    socket.send({
      requestId: envelope.requestId,
      msg: {
        case: "registerAck",
        value: {
          nodeId: msg.nodeId,
          heartbeatIntervalMs: deps.heartbeatIntervalMs,
          serverVersion: deps.serverVersion,
          agentUrls: [...(deps.agentUrls?.() ?? [])],
        },
      },
    });
    // What reads the node from the store (the reconciler, the engine build) waits for the write.
    const written = () => {
      if (!isClosed) deps.onRegistered(msg);
    };
    const saved = deps.saveRegistration?.(msg);
    if (saved) void saved.then(written, written);
    else written();
  };

  return {
    isRegistered: () => nodeId !== null,
    onEnvelope(envelope) {
      const { msg } = envelope;
      if (msg.case === "register") return register(envelope, msg.value);
      if (nodeId === null) {
        refuse(ErrorCode.NOT_REGISTERED, `send Register first (got ${msg.case ?? "nothing"})`);
        socket.close(CLOSE_UNAUTHENTICATED, "not registered");
        return;
      }
      switch (msg.case) {
        case "heartbeat":
          if (!deps.registry.heartbeat(nodeId, sessionId, msg.value, deps.nowMs())) return;
          deps.onReplicaReport?.(nodeId, msg.value.replicas, "heartbeat");
          deps.registry.sources.accept(nameOf(nodeId), msg.value.sourceConfigs, deps.log);
          return;
        case "replicaStatus":
          deps.registry.touch(nodeId, sessionId, deps.nowMs());
          deps.onReplicaReport?.(nodeId, [msg.value], "status");
          return;
        case "logsReply":
        case "reclaimReply":
        case "upgradeReply":
        case "doctorReply":
        case "fabricTestReply":
          if (!deps.links?.answer(nodeId, envelope))
            deps.log(`agent ${nodeId} answered ${msg.case} that nothing waits for`);
          return;
        case "ping":
          deps.registry.touch(nodeId, sessionId, deps.nowMs());
          socket.send({
            requestId: envelope.requestId,
            msg: { case: "pong", value: { sentAtMs: msg.value.sentAtMs } },
          });
          return;
        case "pong":
          deps.registry.touch(nodeId, sessionId, deps.nowMs());
          return;
        case "error":
          // An error answering one of our requests ends that request; others are only logged.
          if (envelope.requestId && deps.links?.answer(nodeId, envelope)) return;
          deps.log(`agent ${nodeId} reported: ${msg.value.message}`);
          return;
        default:
          refuse(
            ErrorCode.UNSUPPORTED,
            `the server does not accept ${msg.case ?? "this frame"} from agents`,
          );
      }
    },
    onClose() {
      isClosed = true;
      if (nodeId === null) return;
      deps.registry.disconnect(nodeId, sessionId, deps.nowMs());
      deps.links?.detach(nodeId, sessionId);
      deps.onDisconnected(nodeId);
    },
  };
}

const NODE_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

function validateRegister(msg: Register): string | null {
  if (!NODE_ID_PATTERN.test(msg.nodeId))
    return "Register.node_id must be 1-128 characters of A-Z a-z 0-9 . _ : -";
  if (msg.nodeName.length === 0 || msg.nodeName.length > 253)
    return "Register.node_name must be 1-253 characters";
  if ((msg.hardware?.gpus.length ?? 0) > 1024)
    return "Register.hardware.gpus lists more than 1024 cards";
  return null;
}
