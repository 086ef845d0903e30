import { describe, expect, it } from "vitest";
import { redactPii } from "./pii";
import { PII_STREAM_WINDOW, PiiStreamRedactor } from "./pii-stream";

/** What a client sees of the pieces, all pushed and then ended, and what each push released. */
function streamed(pieces: string[]): { text: string; released: string[] } {
  const redactor = new PiiStreamRedactor();
  const released = pieces.map((piece) => redactor.push(piece));
  const text = released.join("") + redactor.end();
  return { text, released };
}

describe("personal data redacted in a streamed text", () => {
  it("redacts a phone number split over two pieces", () => {
    const { text, released } = streamed(["Call me on +90 532 12", "3 45 67 after five."]);
    expect(text).toBe("Call me on [redacted:phone] after five.");
    expect(released.join("")).not.toContain("532");
  });

  it("redacts an IBAN split over three pieces", () => {
    const { text, released } = streamed([
      "Pay to TR33 0006 10",
      "05 1978 6457 ",
      "8413 26 by Friday, thanks.",
    ]);
    expect(text).toBe("Pay to [redacted:iban] by Friday, thanks.");
    for (const part of released) expect(part).not.toMatch(/TR33|0006|1978|8413/);
  });

  it("redacts a number split one character a piece, as a tokenizer may", () => {
    const source = "my TC is 10000000146 and mail ada@example.com, ok";
    const { text } = streamed([...source]);
    expect(text).toBe(redactPii(source).text);
    expect(text).toBe("my TC is [redacted:tc_kimlik] and mail [redacted:email], ok");
  });

  it("releases text as soon as it is past the window, and holds back no more", () => {
    const redactor = new PiiStreamRedactor();
    const words = "the cluster serves a simulated answer with steady tokens ".repeat(4);
    const out = redactor.push(words);
    expect(out).toBe(words.slice(0, words.length - PII_STREAM_WINDOW));
    expect(redactor.end()).toBe(words.slice(words.length - PII_STREAM_WINDOW));
  });

  it("holds a number that could still grow, and leaves one that fails its check alone", () => {
    const redactor = new PiiStreamRedactor();
    const head = "x".repeat(100) + " order 4711 and card 4111 1111 1111 ";
    const out = redactor.push(head);
    expect(out).not.toContain("4111");
    const rest = redactor.push("1111" + " ".repeat(80)) + redactor.end();
    expect(out + rest).toContain("order 4711 and card [redacted:card]");
    expect(redactor.kinds).toEqual(["card"]);
  });

  it("passes a text without personal data through unchanged, whatever the pieces", () => {
    const source = "released 2026-12-02 as v1.2.3.4 at 12:30, order 12345, port 8080";
    for (const size of [1, 3, 7, 20]) {
      const pieces = source.match(new RegExp(`[\\s\\S]{1,${size}}`, "g")) ?? [];
      expect(streamed(pieces).text).toBe(source);
    }
  });
});
