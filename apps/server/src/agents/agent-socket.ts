// What a session and the node links may do with an agent's socket, apart from the server that
// owns the sockets (which imports the sessions, so they cannot import it back).
import type { encodeEnvelope } from "@llmgw/proto";

/** Close code for refused authentication (4000-4999 are for applications). */
export const CLOSE_UNAUTHENTICATED = 4401;

/** What a session may do with its socket. */
export interface AgentSocket {
  readonly remoteAddress: string;
  /** The node id (CN) of the client certificate the socket was opened with. */
  readonly certificateNodeId: string;
  send(init: Parameters<typeof encodeEnvelope>[0]): void;
  close(code: number, reason: string): void;
}
