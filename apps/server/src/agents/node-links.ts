// The server's way to reach a node: send a frame through its current session, or send a request
// and await the reply that carries the same request id. A reply that does not come in time, or a
// session that closes first, rejects with a sentence naming the node.
import { randomUUID } from "node:crypto";
import type { Envelope, EnvelopeInit } from "@llmgw/proto";
import type { AgentSocket } from "./agent-socket";

interface Pending {
  resolve(envelope: Envelope): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface Link {
  sessionId: number;
  socket: AgentSocket;
  pending: Map<string, Pending>;
}

class NodeNotConnectedError extends Error {
  override readonly name = "NodeNotConnectedError";
}

export class NodeLinks {
  private readonly links = new Map<string, Link>();

  attach(nodeId: string, sessionId: number, socket: AgentSocket): void {
    this.detach(nodeId, this.links.get(nodeId)?.sessionId ?? -1, "the node connected again");
    this.links.set(nodeId, { sessionId, socket, pending: new Map() });
  }

  /** Only the session that owns the link may close it: a reconnect may already have replaced it. */
  detach(nodeId: string, sessionId: number, why = "the node disconnected"): void {
    const link = this.links.get(nodeId);
    if (!link || link.sessionId !== sessionId) return;
    this.links.delete(nodeId);
    for (const pending of link.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new NodeNotConnectedError(`node ${nodeId}: ${why} before it answered`));
    }
  }

  /** Closes the node's current session (the session's own close then detaches it). */
  close(nodeId: string, code: number, reason: string): boolean {
    const link = this.links.get(nodeId);
    link?.socket.close(code, reason);
    return link !== undefined;
  }

  isConnected(nodeId: string): boolean {
    return this.links.has(nodeId);
  }

  send(nodeId: string, init: EnvelopeInit): boolean {
    const link = this.links.get(nodeId);
    if (!link) return false;
    link.socket.send(init);
    return true;
  }

  request(nodeId: string, init: EnvelopeInit, timeoutMs: number): Promise<Envelope> {
    const link = this.links.get(nodeId);
    if (!link) return Promise.reject(new NodeNotConnectedError(`node ${nodeId} is not connected`));
    const requestId = randomUUID();
    return new Promise<Envelope>((resolve, reject) => {
      const timer = setTimeout(() => {
        link.pending.delete(requestId);
        reject(new Error(`node ${nodeId} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      link.pending.set(requestId, { resolve, reject, timer });
      link.socket.send({ ...init, requestId });
    });
  }

  /** Hands a reply to the request waiting for it; false when nothing waits (late or unknown). */
  answer(nodeId: string, envelope: Envelope): boolean {
    const pending = this.links.get(nodeId)?.pending.get(envelope.requestId);
    if (!pending) return false;
    this.links.get(nodeId)?.pending.delete(envelope.requestId);
    clearTimeout(pending.timer);
    pending.resolve(envelope);
    return true;
  }
}
