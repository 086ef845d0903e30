// Where a new node joins: the agent port's address under each name the server's certificate
// holds that a node could use, and the CA fingerprint it pins. `ctl join-tokens create` prints
// the join command from it.
import { hostname } from "node:os";
import type { JoinInfo } from "@llmgw/api";

export interface JoinInfoSource {
  agentHost: string;
  agentTls: { names: string[]; addresses: string[] };
  caSha256: string;
  /** The port the agent port listens on (known once it listens). */
  agentPort(): number;
}

const WILDCARDS = new Set(["0.0.0.0", "::", ""]);

export function joinInfoOf(source: JoinInfoSource): JoinInfo {
  const bound = WILDCARDS.has(source.agentHost) ? [hostname()] : [source.agentHost];
  const hosts = [...new Set([...source.agentTls.names, ...source.agentTls.addresses, ...bound])];
  const port = source.agentPort();
  return {
    agentUrls: hosts.map((host) => `wss://${host.includes(":") ? `[${host}]` : host}:${port}`),
    caSha256: source.caSha256,
  };
}
