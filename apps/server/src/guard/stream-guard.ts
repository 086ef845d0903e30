// The guard on a streamed /v1 answer (server-sent events in OpenAI's chunk shapes). Personal data
// is redacted as the text streams: each choice's text goes through a PiiStreamRedactor, which holds
// back a short tail until no number or address could still grow into it. Planted instructions:
// the rules read each choice's latest text as it arrives and cut the stream at the piece that
// completes one; the judge reads the whole answer at its end, while the finishing events (the
// finish reason, usage, `[DONE]`) are held back. A blocked answer ends with an error event in
// place of the held ones; one that passes gets them, after a comment line when the guard changed
// or failed open on it. Every answer read is one decision, audited and counted as for a whole one.
import { findInjection, PiiStreamRedactor, type GuardPolicy } from "@llmgw/domain";
import type { Guard, GuardDecision } from "./guard";
import { guardRefusal, type V1Who } from "./v1-guard";

const EVENT_END = /\r?\n\r?\n/g;
/** An event longer than this without its blank line is not SSE as engines write it. */
const PENDING_BYTES_MAX = 1024 * 1024;
/** The rules read this much of a choice's latest text at each piece: planted instructions are short. */
const RULE_TAIL = 1_024;
const EMPTY = Buffer.alloc(0);

interface ChoiceText {
  raw: string;
  redactor: PiiStreamRedactor | null;
  isFinished: boolean;
}

type Chunk = Record<string, unknown> & { choices?: unknown };

export class StreamGuard {
  private pending: Buffer = EMPTY;
  private readonly choices = new Map<number, ChoiceText>();
  /** Events from the first finish reason on, held until the judge has read the whole answer. */
  private held: Buffer[] = [];
  private isHolding = false;
  private isOver = false;
  private isBlocked = false;
  /** The last chunk's fields other than its choices, for a chunk that carries text still held. */
  private head: Chunk | null = null;
  private decision: GuardDecision | null = null;
  /** A rule fired mid-stream but the whole answer passed: the rules wait for the end from then on. */
  private hasDecidedEarly = false;
  private readonly redacts: boolean;
  private readonly readsInjection: boolean;

  constructor(
    private readonly guard: Pick<Guard, "inspect">,
    private readonly who: V1Who,
    /** The policies that read answers for this caller (at least one). */
    policies: readonly GuardPolicy[],
  ) {
    this.redacts = policies.some((p) => p.checks.includes("pii"));
    this.readsInjection = policies.some((p) => p.checks.includes("injection"));
  }

  /** The stream was cut with an error event: nothing more goes to the client. */
  get isCut(): boolean {
    return this.isBlocked;
  }

  /** The code of the error event that cut the stream; null while it is not cut. */
  cutCode: string | null = null;

  /** The bytes to send now for this piece of the upstream body. */
  async push(chunk: Buffer): Promise<Buffer> {
    if (this.isOver) return EMPTY;
    const buffer = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    // latin1 maps each byte to one character, so string offsets are byte offsets.
    const text = buffer.toString("latin1");
    const out: Buffer[] = [];
    let start = 0;
    EVENT_END.lastIndex = 0;
    for (let match = EVENT_END.exec(text); match; match = EVENT_END.exec(text)) {
      const end = match.index + match[0].length;
      out.push(await this.event(buffer.subarray(start, end)));
      start = end;
      if (this.isOver) return Buffer.concat(out);
    }
    this.pending = buffer.subarray(start);
    if (this.pending.length > PENDING_BYTES_MAX) {
      out.push(this.pending);
      this.pending = EMPTY;
    }
    return Buffer.concat(out);
  }

  /** The upstream body ended (without `[DONE]` if this is the first the guard hears of it). */
  async end(): Promise<Buffer> {
    if (this.isOver) return EMPTY;
    const rest = this.pending.length > 0 ? await this.event(this.pending) : EMPTY;
    this.pending = EMPTY;
    if (this.isOver) return rest;
    return Buffer.concat([rest, await this.finish(EMPTY)]);
  }

  private async event(event: Buffer): Promise<Buffer> {
    const text = event.toString("utf8");
    const line = /^data: ?(.*)$/m.exec(text);
    const data = line?.[1]?.trim();
    if (line === null || data === undefined) return this.pass(event);
    if (data === "[DONE]") return this.finish(event);
    let chunk: Chunk;
    try {
      const parsed: unknown = JSON.parse(data);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        return this.pass(event);
      chunk = parsed as Chunk;
    } catch {
      return this.pass(event);
    }
    if (!Array.isArray(chunk.choices) || "error" in chunk) return this.pass(event);
    const { choices, ...head } = chunk;
    this.head = head;
    let finishes = false;
    for (const choice of choices as unknown[]) {
      if (typeof choice !== "object" || choice === null) continue;
      const planted = this.read(choice as Record<string, unknown>);
      if (planted && !this.hasDecidedEarly) {
        this.hasDecidedEarly = true;
        const blocked = await this.decide();
        if (blocked) return blocked;
      }
      if ((choice as { finish_reason?: unknown }).finish_reason != null) finishes = true;
    }
    // The judge reads the whole answer: from the first finish on, events wait for its verdict.
    if (finishes && this.readsInjection) this.isHolding = true;
    if (!this.redacts) return this.pass(event);
    const at = line.index;
    const dataLine = `data: ${JSON.stringify(chunk)}`;
    return this.pass(Buffer.from(text.slice(0, at) + dataLine + text.slice(at + line[0].length)));
  }

  /** Takes one choice's new text (redacting it in place); answers whether a rule now fires. */
  private read(choice: Record<string, unknown>): boolean {
    const index = typeof choice.index === "number" ? choice.index : 0;
    const state = this.choiceText(index);
    const delta = choice.delta;
    const holder = delta && typeof delta === "object" ? (delta as Record<string, unknown>) : choice;
    const key = holder === choice ? "text" : "content";
    const piece = typeof holder[key] === "string" ? holder[key] : "";
    state.raw += piece;
    const isFinishing = choice.finish_reason != null;
    if (state.redactor) {
      let out = piece ? state.redactor.push(piece) : "";
      if (isFinishing && !state.isFinished) out += state.redactor.end();
      if (out || typeof holder[key] === "string") holder[key] = out;
    }
    if (isFinishing) state.isFinished = true;
    return (
      piece !== "" && this.readsInjection && findInjection(state.raw.slice(-RULE_TAIL)) !== null
    );
  }

  private choiceText(index: number): ChoiceText {
    let state = this.choices.get(index);
    if (!state) {
      state = {
        raw: "",
        redactor: this.redacts ? new PiiStreamRedactor() : null,
        isFinished: false,
      };
      this.choices.set(index, state);
    }
    return state;
  }

  private pass(event: Buffer): Buffer {
    if (!this.isHolding) return event;
    this.held.push(event);
    return EMPTY;
  }

  /** The end of the answer: the guard's decision on the whole of it, then what is still held. */
  private async finish(doneEvent: Buffer): Promise<Buffer> {
    const unfinished = this.flushUnfinished();
    const blocked = await this.decide();
    if (blocked) return blocked;
    this.isOver = true;
    const decision = this.decision;
    const note =
      decision?.outcome === "redacted"
        ? ": x-llmgw-guard: redacted\n\n"
        : decision?.outcome === "failed_open"
          ? `: x-llmgw-guard: failed-open; policy=${decision.policies.join(",")}\n\n`
          : "";
    const held = this.held;
    this.held = [];
    return Buffer.concat([unfinished, Buffer.from(note), ...held, doneEvent]);
  }

  /** Reads the answer so far as one decision; answers the error event that ends a blocked one. */
  private async decide(): Promise<Buffer | null> {
    const texts = [...this.choices.entries()].sort(([a], [b]) => a - b).map(([, c]) => c.raw);
    this.decision = await this.guard.inspect("answer", this.who, texts);
    const refusal = guardRefusal(this.decision, "answer");
    if (!refusal) return null;
    this.isOver = true;
    this.isBlocked = true;
    this.cutCode = refusal.code;
    this.held = [];
    const error = { message: refusal.message, type: refusal.type, code: refusal.code };
    return Buffer.from(`data: ${JSON.stringify({ error })}\n\n`);
  }

  /** Text still held for a choice whose finish reason never came, in a chunk of its own. */
  private flushUnfinished(): Buffer {
    const isChat = this.head?.object !== "text_completion";
    const choices = [...this.choices.entries()].flatMap(([index, state]) => {
      if (state.isFinished || !state.redactor) return [];
      state.isFinished = true;
      const rest = state.redactor.end();
      if (!rest) return [];
      return [
        isChat
          ? { index, delta: { content: rest }, finish_reason: null }
          : { index, text: rest, finish_reason: null },
      ];
    });
    if (choices.length === 0) return EMPTY;
    return Buffer.from(`data: ${JSON.stringify({ ...this.head, choices })}\n\n`);
  }
}
