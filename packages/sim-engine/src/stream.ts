// Server-sent events as OpenAI writes them: `data: {json}\n\n` per chunk and `data: [DONE]` last,
// with the drop-stream fault cutting the connection after a set number of chunks.
import type { ServerResponse } from "node:http";
import { once } from "node:events";

export class SseWriter {
  private chunksWritten = 0;

  constructor(
    private readonly res: ServerResponse,
    /** Cut the connection once this many chunks are out; undefined: never. */
    private readonly dropAfterChunks: number | undefined,
    headers: Record<string, string>,
  ) {
    res.writeHead(200, {
      ...headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.flushHeaders();
  }

  /** True if the connection was cut by the fault before this chunk. */
  get isDropped(): boolean {
    return this.dropAfterChunks !== undefined && this.chunksWritten >= this.dropAfterChunks;
  }

  /** Writes one chunk, waiting for the socket to drain; throws once the stream is dropped. */
  async send(data: unknown): Promise<void> {
    this.dropIfDue();
    const isFlushed = this.res.write(
      `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`,
    );
    this.chunksWritten += 1;
    if (!isFlushed) await once(this.res, "drain");
  }

  async done(): Promise<void> {
    await this.send("[DONE]");
    this.res.end();
  }

  dropIfDue(): void {
    if (!this.isDropped) return;
    // Destroying the socket is what a crashed engine looks like to the client: no [DONE], no
    // terminating chunk of the chunked encoding.
    this.res.socket?.destroy();
    throw new StreamDroppedError();
  }
}

export class StreamDroppedError extends Error {
  constructor() {
    super("stream dropped by --fault drop-stream");
  }
}
