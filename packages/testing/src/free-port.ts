import { createServer } from "node:net";

/**
 * Asks the kernel for a free loopback port. Another process may take it before the caller binds,
 * so callers that can retry on EADDRINUSE (startPostgres does) should.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0 }, () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        reject(new Error(`freePort: unexpected listen address ${String(address)}`));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}
