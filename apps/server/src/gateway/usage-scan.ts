// Finds the engine's `usage` in an answer without parsing it whole: bodies stream through, and
// the usage object sits in the last SSE chunk or near the end of a JSON answer, so a bounded head
// and tail of the bytes are kept and searched.

const HEAD_BYTES = 4_096;
const TAIL_BYTES = 8_192;

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export class UsageScanner {
  /** The first chunks, until they hold HEAD_BYTES. */
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  /** The last chunks, as few as hold TAIL_BYTES; read only when usage() is asked. */
  private readonly tail: Buffer[] = [];
  private tailBytes = 0;
  firstByteAtMs: number | null = null;

  constructor(private readonly nowMs: () => number) {}

  /** Keeps the chunk, not a copy: a stream's chunks are decoded once, at its end, not each. */
  see(chunk: Buffer): void {
    if (this.firstByteAtMs === null) this.firstByteAtMs = this.nowMs();
    if (this.headBytes < HEAD_BYTES) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    for (let first = this.tail[0]; first && this.tailBytes - first.length >= TAIL_BYTES;) {
      this.tail.shift();
      this.tailBytes -= first.length;
      first = this.tail[0];
    }
  }

  usage(): TokenUsage | null {
    const tail = joined(this.tail, this.tailBytes);
    const found = usageIn(tail.toString("latin1", Math.max(0, tail.length - TAIL_BYTES)));
    return found ?? usageIn(joined(this.head, this.headBytes).toString("latin1", 0, HEAD_BYTES));
  }
}

function joined(chunks: readonly Buffer[], bytes: number): Buffer {
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, bytes);
}

export function usageIn(text: string): TokenUsage | null {
  const at = text.lastIndexOf('"usage":');
  if (at < 0) return null;
  const rest = text.slice(at, at + 400);
  const prompt = /"prompt_tokens":\s*(\d+)/.exec(rest);
  if (!prompt) return null;
  const completion = /"completion_tokens":\s*(\d+)/.exec(rest);
  return {
    promptTokens: Number(prompt[1]),
    completionTokens: completion ? Number(completion[1]) : 0,
  };
}
