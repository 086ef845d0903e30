// The steps tls-sockets.ts takes toward the real agent port: the join's signing (server side) and
// an HTTPS join on a connection of its own (client side), and the frames a connection sends
// (filler of a Register's and a Heartbeat's size, or the simulated H100 ×8 node's real envelopes).
import { createSimulation } from "@llmgw/agent";
import { readServerCa, signNodeCsr } from "@llmgw/pki";
import { encodeEnvelope } from "@llmgw/proto";
import { simRegister } from "../agents/sim-agent";
import type { IncomingMessage, ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";

const REGISTER_BYTES = 3_000;
const HEARTBEAT_BYTES = 700;

/** The join route's work: the CSR in the body signed with the cluster CA, the certificate answered. */
export async function signJoin(
  home: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const { csrPem, nodeId } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
    csrPem: string;
    nodeId: string;
  };
  const signed = await signNodeCsr(readServerCa(home), csrPem, { nodeId, validDays: 1 });
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ certPem: signed.certPem }));
}

/** One join on a connection of its own (no keep-alive), as an agent's first start makes it. */
export async function joinOne(port: number, tls: ClientTls): Promise<void> {
  // One CSR for all (the server signs it again each time): its name is the shared identity's.
  const body = JSON.stringify({ csrPem: tls.csrPem, nodeId: "sim-tls-sockets" });
  await new Promise<void>((resolve, reject) => {
    const req = httpsRequest(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/join",
        ca: tls.ca,
        servername: "localhost",
        agent: false,
        headers: { "content-type": "application/json" },
      },
      (res) => {
        res.on("data", () => undefined);
        res.on("end", resolve);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export interface ClientTls {
  ca: string;
  cert: string;
  key: string;
  csrPem: string;
}

export interface Frames {
  register(): Buffer;
  heartbeat(): Buffer;
}

/** Filler of a Register's and a Heartbeat's size, or the simulated H100 ×8 node's real frames. */
export function framesFor(kind: string, at: number): Frames {
  if (kind !== "sim") {
    const register = Buffer.alloc(REGISTER_BYTES, 1);
    const heartbeat = Buffer.alloc(HEARTBEAT_BYTES, 2);
    return { register: () => register, heartbeat: () => heartbeat };
  }
  const nodeId = `sim-frames-${at}`;
  const simulation = createSimulation("h100x8", nodeId, at + 1);
  return {
    register: () =>
      Buffer.from(
        encodeEnvelope({
          requestId: "register",
          msg: {
            case: "register",
            value: simRegister(nodeId, simulation),
          },
        }),
      ),
    heartbeat: () => {
      const step = simulation.step();
      return Buffer.from(
        encodeEnvelope({
          msg: {
            case: "heartbeat",
            value: { sentAtMs: BigInt(Date.now()), gpus: step.gpus, ...step.host },
          },
        }),
      );
    },
  };
}
