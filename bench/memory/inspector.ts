// The server's V8 inspector, for the memory bench only: the server is started with
// `--inspect=127.0.0.1:0` (loopback, a port the kernel picks, printed on stderr), and this client
// forces a full garbage collection and writes a heap snapshot over the DevTools protocol.
import { createWriteStream } from "node:fs";
import WebSocket from "ws";

/** The NODE_OPTIONS flag that opens the inspector on loopback only. */
export const INSPECT_FLAG = "--inspect=127.0.0.1:0";
/** What node prints on stderr once the inspector listens; group 1 is its WebSocket URL. */
export const INSPECTOR_LISTENING = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/;

interface Reply {
  id?: number;
  method?: string;
  params?: { chunk?: string };
  result?: { result?: { value?: unknown } };
  error?: { message: string };
}

export class Inspector {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: Reply) => void>();
  private onChunk: ((chunk: string) => void) | undefined;

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data: Buffer) => {
      const reply = JSON.parse(data.toString("utf8")) as Reply;
      if (reply.method === "HeapProfiler.addHeapSnapshotChunk" && reply.params?.chunk)
        this.onChunk?.(reply.params.chunk);
      else if (reply.id !== undefined) this.waiting.get(reply.id)?.(reply);
    });
  }

  static async connect(url: string): Promise<Inspector> {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 2 ** 30 });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    return new Inspector(ws);
  }

  private call(method: string, params: object = {}): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (reply) => {
        this.waiting.delete(id);
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
        else resolve(reply);
      });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** A full, compacting collection (V8's "collect garbage" button). */
  async collectGarbage(): Promise<void> {
    await this.call("HeapProfiler.enable");
    await this.call("HeapProfiler.collectGarbage");
  }

  /** Writes a `.heapsnapshot` to `path` (V8 collects garbage before it takes one). */
  async heapSnapshot(path: string): Promise<void> {
    const out = createWriteStream(path);
    this.onChunk = (chunk) => out.write(chunk);
    try {
      await this.call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
    } finally {
      this.onChunk = undefined;
      await new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
    }
  }

  /** An expression's value in the process, by value (JSON-like). */
  async evaluate(expression: string): Promise<unknown> {
    const reply = await this.call("Runtime.evaluate", { expression, returnByValue: true });
    return reply.result?.result?.value;
  }

  /** The process's own `process.memoryUsage()` (call collectGarbage first for a settled one). */
  async memoryUsage(): Promise<NodeJS.MemoryUsage> {
    const value = await this.evaluate("process.memoryUsage()");
    if (typeof value !== "object" || value === null)
      throw new Error("Runtime.evaluate answered no process.memoryUsage()");
    return value as NodeJS.MemoryUsage;
  }

  close(): void {
    this.ws.close();
  }
}
