// TLS session resumption for the agent's connections: the session (a TLS 1.3 ticket) a control
// plane gave on one connection is offered on the next one to that address, so a reconnect after a
// network drop skips the full handshake's signatures and certificate checks on both sides. That is
// what lets a whole fleet come back at once. A session belongs to one address and one node
// certificate: a renewed certificate starts a full handshake, so the server sees the new one. A
// server that restarted no longer knows the ticket and simply does a full handshake.
import type { createConnection } from "node:net";
import { isIP } from "node:net";
import {
  connect,
  createSecureContext,
  type ConnectionOptions,
  type SecureContext,
  type TLSSocket,
} from "node:tls";

/** What `ws` calls to open the socket (its `createConnection` option). */
export type TlsConnector = typeof createConnection;

/** Sessions kept per address and certificate; a process keeps one, its agent's connections share it. */
export class TlsSessionCache {
  private readonly sessions = new Map<string, Buffer>();
  /**
   * The secure context built from the node's key, certificate and CA, kept while they stay the
   * same: building it parses the key and certificates again (2 ms a dial on a loaded machine;
   * a bench holding 2,000 agents in one process spent seconds of a storm on it).
   */
  private context: { ca: unknown; cert: unknown; key: unknown; built: SecureContext } | undefined;

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
        secureContext: options.secureContext ?? this.secureContextFor(options),
        session: this.sessions.get(key),
      });
      socket.on("session", (session: Buffer) => this.sessions.set(key, session));
      return socket;
    };
    return open as unknown as TlsConnector;
  }

  /** The context for these key, certificate and CA: the kept one, or a new one kept instead. */
  secureContextFor(options: Pick<ConnectionOptions, "ca" | "cert" | "key">): SecureContext {
    const { ca, cert, key } = options;
    const kept = this.context;
    if (kept && kept.ca === ca && kept.cert === cert && kept.key === key) return kept.built;
    const built = createSecureContext({ ca, cert, key });
    this.context = { ca, cert, key, built };
    return built;
  }

  /** Drops what is kept for `url` (the server refused the node: start afresh next time). */
  forget(url: string): void {
    for (const key of this.sessions.keys())
      if (key.startsWith(`${url}\n`)) this.sessions.delete(key);
  }
}
