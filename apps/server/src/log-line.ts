// The server log is one event per line. Whatever a field holds (a username, a URL, an error's
// stack), it is written so that it cannot end the line and start a forged one.
import { isControlCode } from "@llmgw/api";

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `text` on one line: control characters written as escapes (`\n`, `\u001b`). */
export function oneLogLine(text: string): string {
  let line = "";
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    line += isControlCode(code)
      ? (NAMED[character] ?? `\\u${code.toString(16).padStart(4, "0")}`)
      : character;
  }
  return line;
}

/** One log line as the server writes it to stderr. */
export function formatLogLine(line: string, now: Date): string {
  return `${now.toISOString()} server ${oneLogLine(line)}\n`;
}
