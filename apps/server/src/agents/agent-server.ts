// The agent port: a WebSocket endpoint where node agents register and send heartbeats. Every
// frame is one protobuf Envelope. Bad frames are answered and counted, never fatal; sockets that
// do not authenticate are closed with a reason.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import {
  AGENT_WS_PATH,
  ErrorCode,
  decodeEnvelope,
  encodeEnvelope,
  type Envelope,
} from "@llmgw/proto";
import type { AgentSessionHandler } from "./session";

/** Close code for refused authentication (4000-4999 are for applications). */
export const CLOSE_UNAUTHENTICATED = 4401;
/** How long a new socket may take to send Register before it is closed. */
const REGISTER_TIMEOUT_MS = 10_000;
/** A session that sends this many malformed frames in a row is closed. */
const MALFORMED_STREAK_MAX = 20;

export interface AgentServerOptions {
  host: string;
  port: number;
  maxFrameBytes: number;
  onConnection(socket: AgentSocket): AgentSessionHandler;
  onMalformedFrame(): void;
}

/** What a session may do with its socket. */
export interface AgentSocket {
  readonly remoteAddress: string;
  send(init: Parameters<typeof encodeEnvelope>[0]): void;
  close(code: number, reason: string): void;
}

export interface AgentServer {
  port: number;
  close(): Promise<void>;
}

export async function startAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const http: Server = createServer((_req, res) => {
    res.writeHead(426, { "content-type": "text/plain" }).end("agents connect with a WebSocket\n");
  });
  const wss = new WebSocketServer({
    server: http,
    path: AGENT_WS_PATH,
    maxPayload: options.maxFrameBytes,
    perMessageDeflate: false,
  });
  wss.on("connection", (ws, req) => attach(ws, req.socket.remoteAddress ?? "", options));
  // A connection error must never take the process down.
  wss.on("error", () => undefined);
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (http.address() as AddressInfo).port,
    close: () => closeAll(wss, http),
  };
}

function attach(ws: WebSocket, remoteAddress: string, options: AgentServerOptions): void {
  const socket: AgentSocket = {
    remoteAddress,
    send: (init) => {
      if (ws.readyState === ws.OPEN) ws.send(encodeEnvelope(init));
    },
    close: (code, reason) => ws.close(code, reason.slice(0, 120)),
  };
  const handler = options.onConnection(socket);
  let malformedStreak = 0;
  const registerTimer = setTimeout(() => {
    if (!handler.isRegistered()) socket.close(CLOSE_UNAUTHENTICATED, "no Register frame in time");
  }, REGISTER_TIMEOUT_MS);

  ws.on("message", (data: RawData, isBinary: boolean) => {
    const envelope = decodeFrame(data, isBinary);
    if (typeof envelope === "string") {
      options.onMalformedFrame();
      socket.send({
        msg: { case: "error", value: { code: ErrorCode.MALFORMED_FRAME, message: envelope } },
      });
      malformedStreak += 1;
      if (malformedStreak >= MALFORMED_STREAK_MAX) socket.close(1008, "too many malformed frames");
      return;
    }
    malformedStreak = 0;
    handler.onEnvelope(envelope);
  });
  ws.on("close", () => {
    clearTimeout(registerTimer);
    handler.onClose();
  });
  ws.on("error", () => ws.terminate());
}

/** Returns the envelope, or a sentence saying why the frame was refused. */
function decodeFrame(data: RawData, isBinary: boolean): Envelope | string {
  if (!isBinary) return "text frames are not accepted: send a binary protobuf Envelope";
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  try {
    return decodeEnvelope(bytes);
  } catch (error) {
    return (error as Error).message;
  }
}

async function closeAll(wss: WebSocketServer, http: Server): Promise<void> {
  for (const client of wss.clients) client.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  await new Promise<void>((resolve) => http.close(() => resolve()));
}
