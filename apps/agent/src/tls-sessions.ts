// TLS session resumption for the agent's connections: the session (a TLS 1.3 ticket) a control
// plane gave on one connection is offered on the next one to that address, so a reconnect after a
// network drop skips the full handshake's signatures and certificate checks on both sides. That is
// what lets a whole fleet come back at once. A session belongs to one address and one node
// certificate: a renewed certificate starts a full handshake, so the server sees the new one. A
// server that restarted no longer knows the ticket and simply does a full handshake.
import type { createConnection } from "node:net";
import { isIP } from "node:net";
import { connect, type ConnectionOptions, type TLSSocket } from "node:tls";

/** What `ws` calls to open the socket (its `createConnection` option). */
export type TlsConnector = typeof createConnection;

/** Sessions kept per address and certificate; a process keeps one, its agent's connections share it. */
export class TlsSessionCache {
  private readonly sessions = new Map<string, Buffer>();

  /** How many sessions are kept (one per address and certificate). */
  get size(): number {
    return this.sessions.size;
  }

  /**
   * A `createConnection` for `ws` that offers the session kept for `url` and `cert` and keeps the
   * newest one the server sends. Does what `ws` does itself for wss:// (server name from the host).
   */
  connector(url: string, cert: string): TlsConnector {
    const key = `${url}\n${cert}`;
    const open = (options: ConnectionOptions): TLSSocket => {
      const host = options.host ?? "";
      const servername =
        !options.servername && options.servername !== ""
          ? isIP(host)
            ? ""
            : host
          : options.servername;
      const socket = connect({
        ...options,
        path: undefined,
        servername,
        session: this.sessions.get(key),
      });
      socket.on("session", (session: Buffer) => this.sessions.set(key, session));
      return socket;
    };
    return open as unknown as TlsConnector;
  }

  /** Drops what is kept for `url` (the server refused the node: start afresh next time). */
  forget(url: string): void {
    for (const key of this.sessions.keys())
      if (key.startsWith(`${url}\n`)) this.sessions.delete(key);
  }
}
