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
  private head = "";
  private tail = "";
  firstByteAtMs: number | null = null;

  constructor(private readonly nowMs: () => number) {}

  see(chunk: Buffer): void {
    if (this.firstByteAtMs === null) this.firstByteAtMs = this.nowMs();
    const text = tailText(chunk);
    if (this.head.length < HEAD_BYTES)
      this.head += chunk.toString("latin1", 0, HEAD_BYTES - this.head.length);
    this.tail = (this.tail + text).slice(-TAIL_BYTES);
  }

  usage(): TokenUsage | null {
    return usageIn(this.tail) ?? usageIn(this.head);
  }
}

/** Only the last TAIL_BYTES of a chunk can matter for the tail. */
function tailText(chunk: Buffer): string {
  return chunk.toString("latin1", Math.max(0, chunk.length - TAIL_BYTES));
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
