// An engine's output goes to a file it holds open itself (not a pipe to the agent), so it keeps
// running when the agent stops: a pipe with no reader would kill it at its next log line. The agent
// tails the file into a small ring that log requests and failure messages read from. Each line keeps
// the time the agent read it, the only time a line that carries none of its own can be given.
import { open, stat, truncate } from "node:fs/promises";
import { LogRing } from "../log-ring";
import { toLogRecord, type LogRecord } from "../log-record";

const ENGINE_LOG_LINES = 500;
/** Past this the file is cut back to nothing; the engine appends (O_APPEND), so it carries on. */
const MAX_LOG_FILE_BYTES = 32 * 1024 * 1024;
/** On adoption, the end of the file is read again so the ring is not empty. */
const ADOPT_TAIL_BYTES = 64 * 1024;
const READ_CHUNK_BYTES = 256 * 1024;

interface EngineLine {
  text: string;
  readAtMs: number;
}

export class EngineLogTail {
  readonly ring = new LogRing<EngineLine>(ENGINE_LOG_LINES);
  private offset = 0;
  private partialLine = "";
  private reading: Promise<void> = Promise.resolve();

  constructor(
    readonly logPath: string,
    private readonly nowMs: () => number = Date.now,
  ) {}

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
    return this.lastEntries(count).map((line) => line.text);
  }

  /** The last lines as records of `source`; a line still being written counts as read now. */
  lastRecords(count: number, source: string): LogRecord[] {
    return this.lastEntries(count).map((line) => toLogRecord(line.text, source, line.readAtMs));
  }

  private lastEntries(count: number): EngineLine[] {
    const lines = this.ring.snapshot(count);
    if (this.partialLine === "") return lines;
    return [...lines, { text: this.partialLine, readAtMs: this.nowMs() }].slice(-count);
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
    const readAtMs = this.nowMs();
    for (const line of lines) this.ring.push({ text: line.replace(/\r$/, ""), readAtMs });
  }
}
