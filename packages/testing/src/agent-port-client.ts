// A test's own client of the agent port: joins as a node id of its choosing (a key and CSR made
// here, the token and CA of a started server) and gives the TLS options a WebSocket or an HTTPS
// request needs to speak as that node. Attack tests use it to be the attacker.
import { request } from "node:https";
import { createKeyAndCsr } from "@llmgw/pki";
import type { ServerHandle } from "./llmgw-fleet.ts";

export interface NodeIdentity {
  nodeId: string;
  cert: string;
  key: string;
}

export interface AgentPortAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One HTTPS request to the agent port, trusting the server's CA, as `as` when given. */
export function agentPortRequest(
  server: Pick<ServerHandle, "agentUrl" | "caPem">,
  method: "GET" | "POST",
  path: string,
  options: { body?: unknown; as?: NodeIdentity; ca?: string } = {},
): Promise<AgentPortAnswer> {
  const url = `${server.agentUrl.replace(/^wss:/, "https:")}${path}`;
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        ca: options.ca ?? server.caPem,
        ...(options.as ? { cert: options.as.cert, key: options.as.key } : {}),
        headers: payload ? { "content-type": "application/json" } : {},
      },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** Joins as `nodeId` with the server's token (or `token`); throws unless the server says 200. */
export async function joinAs(
  server: Pick<ServerHandle, "agentUrl" | "caPem" | "joinToken">,
  nodeId: string,
  token = server.joinToken,
): Promise<NodeIdentity> {
  const { keyPem, csrPem } = await createKeyAndCsr(nodeId);
  const answer = await agentPortRequest(server, "POST", "/agent/v1/join", {
    body: { token, csr: csrPem, nodeName: nodeId },
  });
  if (answer.status !== 200)
    throw new Error(`joining as ${nodeId}: ${answer.status} ${answer.body}`);
  const { certificate } = JSON.parse(answer.body) as { certificate: string };
  return { nodeId, cert: certificate, key: keyPem };
}

/** Options for `new WebSocket(url, …)` that speak as the node (mutual TLS, the cluster CA). */
export function nodeTlsOptions(
  server: Pick<ServerHandle, "caPem">,
  identity: NodeIdentity | undefined,
): { ca: string; cert?: string; key?: string } {
  return identity
    ? { ca: server.caPem, cert: identity.cert, key: identity.key }
    : { ca: server.caPem };
}
