// Personal data redacted in a text that arrives in pieces (a streamed answer): a phone number or an
// IBAN may be split over two or three pieces, so the last PII_STREAM_WINDOW characters are held
// back until no match could still grow into them, then released redacted; end() releases the rest.
import { findPii, type PiiKind } from "./pii";

/**
 * Characters held back. The longest datum found whole: an IBAN written in groups (at most 42), a
 * phone number (about 36), a card (23), a TC kimlik (11), an e-mail address up to this long. A
 * longer e-mail address is still redacted from where it is first seen whole, its head may pass.
 */
export const PII_STREAM_WINDOW = 64;
/** Held text is released past this even while a match keeps growing (a runaway address). */
const HELD_MAX = 4_096;

export class PiiStreamRedactor {
  /** The last released characters as they came (not redacted): what a match's start looks back on. */
  private context = "";
  private held = "";
  private readonly found = new Set<PiiKind>();

  /** The kinds of personal data redacted so far. */
  get kinds(): PiiKind[] {
    return [...this.found];
  }

  /** Takes the next piece; answers the text that can go out now, redacted (may be empty). */
  push(piece: string): string {
    this.held += piece;
    return this.release(false);
  }

  /** Everything still held, redacted. */
  end(): string {
    return this.release(true);
  }

  private release(isEnd: boolean): string {
    const from = this.context.length;
    const text = this.context + this.held;
    const matches = findPii(text).filter((m) => m.end > from);
    let cut = isEnd ? text.length : text.length - PII_STREAM_WINDOW;
    // A match that reaches into the window may still grow: hold it back from its start.
    if (!isEnd) for (const m of matches) if (m.end > cut) cut = Math.min(cut, m.start);
    if (!isEnd && this.held.length > HELD_MAX) cut = Math.max(cut, text.length - HELD_MAX);
    cut = Math.max(cut, from);
    let out = "";
    let at = from;
    for (const m of matches) {
      if (m.start >= cut) break;
      const start = Math.max(m.start, from);
      if (start < at) continue;
      out += `${text.slice(at, start)}[redacted:${m.kind}]`;
      this.found.add(m.kind);
      at = Math.min(m.end, cut);
    }
    out += text.slice(at, cut);
    this.context = text.slice(Math.max(0, cut - PII_STREAM_WINDOW), cut);
    this.held = text.slice(cut);
    return out;
  }
}
