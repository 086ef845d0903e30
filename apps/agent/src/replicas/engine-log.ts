// An engine's output goes to a file it holds open itself (not a pipe to the agent), so it keeps
// running when the agent stops: a pipe with no reader would kill it at its next log line. The agent
// tails the file into a small ring that log requests and failure messages read from.
import { open, stat, truncate } from "node:fs/promises";
import { LogRing } from "../log-ring";

const ENGINE_LOG_LINES = 500;
/** Past this the file is cut back to nothing; the engine appends (O_APPEND), so it carries on. */
const MAX_LOG_FILE_BYTES = 32 * 1024 * 1024;
/** On adoption, the end of the file is read again so the ring is not empty. */
const ADOPT_TAIL_BYTES = 64 * 1024;
const READ_CHUNK_BYTES = 256 * 1024;

export class EngineLogTail {
  readonly ring = new LogRing(ENGINE_LOG_LINES);
  private offset = 0;
  private partialLine = "";
  private reading: Promise<void> = Promise.resolve();

  constructor(readonly logPath: string) {}

  /** Starts near the end of an existing file (adoption) instead of its beginning. */
  async skipToTail(): Promise<void> {
    try {
      this.offset = Math.max(0, (await stat(this.logPath)).size - ADOPT_TAIL_BYTES);
    } catch {
      this.offset = 0;
    }
  }

  /** Reads what the engine wrote since the last call; calls never overlap. */
  poll(): Promise<void> {
    this.reading = this.reading.then(() => this.readNew()).catch(() => {});
    return this.reading;
  }

  lastLines(count: number): string[] {
    const lines = this.ring.snapshot(count);
    return (this.partialLine === "" ? lines : [...lines, this.partialLine]).slice(-count);
  }

  private async readNew(): Promise<void> {
    const handle = await open(this.logPath, "r");
    try {
      const { size } = await handle.stat();
      if (size < this.offset) this.offset = 0;
      const buffer = Buffer.alloc(READ_CHUNK_BYTES);
      while (this.offset < size) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        this.take(buffer.subarray(0, bytesRead).toString("utf8"));
      }
      if (size > MAX_LOG_FILE_BYTES) {
        await truncate(this.logPath, 0);
        this.offset = 0;
      }
    } finally {
      await handle.close();
    }
  }

  private take(text: string): void {
    const lines = (this.partialLine + text).split("\n");
    this.partialLine = lines.pop() ?? "";
    for (const line of lines) this.ring.push(line.replace(/\r$/, ""));
  }
}
