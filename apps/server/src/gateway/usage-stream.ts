// The gateway asks the engine for usage on every streamed chat and completion (see upstreamBody),
// so a client that did not ask gets back the stream it asked for: the last chunk that carries only
// usage (`choices: []`) is left out, and the `"usage": null` the engine adds to every other chunk
// once asked is taken off again. Events pass on as soon as they are whole, so streaming keeps its
// pace; an event is never held longer than it takes its end to arrive.

/** An event longer than this without its blank line is not SSE as engines write it: pass it on. */
const PENDING_BYTES_MAX = 1024 * 1024;
const EVENT_END = /\r?\n\r?\n/g;

export class UsageChunkFilter {
  private pending: Buffer = Buffer.alloc(0);

  /** The bytes to send now for this piece of the upstream body. */
  push(chunk: Buffer): Buffer {
    const buffer = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    // latin1 maps each byte to one character, so string offsets are byte offsets.
    const text = buffer.toString("latin1");
    const out: Buffer[] = [];
    let start = 0;
    EVENT_END.lastIndex = 0;
    for (let match = EVENT_END.exec(text); match; match = EVENT_END.exec(text)) {
      const end = match.index + match[0].length;
      const event = buffer.subarray(start, end);
      const kept = keptEvent(event);
      if (kept) out.push(kept);
      start = end;
    }
    this.pending = buffer.subarray(start);
    if (this.pending.length > PENDING_BYTES_MAX) {
      out.push(this.pending);
      this.pending = Buffer.alloc(0);
    }
    return out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out);
  }

  /** Whatever is left when the upstream body ends (an unterminated last event), as it came. */
  end(): Buffer {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return rest;
  }
}

/** The event as the client should see it, or null to leave it out. */
function keptEvent(event: Buffer): Buffer | null {
  // Most chunks say nothing of usage: they pass on as they are, unparsed.
  if (!event.includes('"usage"')) return event;
  const text = event.toString("utf8");
  const line = /^data: ?(.*)$/m.exec(text);
  const data = line?.[1];
  if (line === null || data === undefined) return event;
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    return event;
  }
  if (typeof chunk !== "object" || chunk === null || !("usage" in chunk)) return event;
  const { usage, ...rest } = chunk as { usage: unknown; choices?: unknown };
  const isUsageOnly = Array.isArray(rest.choices) && rest.choices.length === 0;
  if (usage !== null && isUsageOnly) return null;
  if (usage !== null) return event;
  const at = line.index;
  return Buffer.from(
    `${text.slice(0, at)}data: ${JSON.stringify(rest)}${text.slice(at + line[0].length)}`,
  );
}
