// Strings the API takes: a NUL reaches the database driver as an error that would carry the SQL,
// and a line break in a name forges lines wherever the name is logged. Every string field is
// either one line (names, usernames, URLs, secrets) or text that may span lines (a PEM
// certificate, a description), and neither may hold any other control character.
import { z } from "zod";

// C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators.
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
// The same without tab, line feed and carriage return, which text over several lines may hold.
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/u;

/** U+0000 for a NUL: the character named so a person can find it in what they sent. */
function codePointOf(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The first control character in `value` that is not allowed, or null. */
export function forbiddenControl(value: string, allowLineBreaks: boolean): string | null {
  const found = (allowLineBreaks ? CONTROL_EXCEPT_LINES : ANY_CONTROL).exec(value);
  return found ? codePointOf(found[0]) : null;
}

function refusal(what: string, codePoint: string, allowLineBreaks: boolean): string {
  return allowLineBreaks
    ? `${what} holds the control character ${codePoint}; only tabs and line breaks are allowed, remove it`
    : `${what} must be one line of plain text, but holds the control character ${codePoint}; remove it`;
}

/** A single-line string: names, usernames, URLs, passwords. `what` names the field in refusals. */
export function oneLine(what: string) {
  return z.string().superRefine((value, ctx) => {
    const codePoint = forbiddenControl(value, false);
    if (codePoint) ctx.addIssue({ code: "custom", message: refusal(what, codePoint, false) });
  });
}

/** A string that may span lines (tabs and line breaks allowed): certificates, descriptions. */
export function multiLine(what: string) {
  return z.string().superRefine((value, ctx) => {
    const codePoint = forbiddenControl(value, true);
    if (codePoint) ctx.addIssue({ code: "custom", message: refusal(what, codePoint, true) });
  });
}

// Deeper input is refused rather than walked: no procedure takes more than a few levels.
const INPUT_DEPTH_MAX = 32;

/**
 * The backstop for every procedure's input, checked before any schema: why the input is refused
 * (which field holds a control character other than tab or line break), or null.
 */
export function inputRefusal(input: unknown, path: string[] = []): string | null {
  const where = path.join(".") || "the input";
  if (typeof input === "string") {
    const codePoint = forbiddenControl(input, true);
    return codePoint ? refusal(where, codePoint, true) : null;
  }
  if (input === null || typeof input !== "object") return null;
  if (path.length >= INPUT_DEPTH_MAX)
    return `${where} nests deeper than ${INPUT_DEPTH_MAX} levels; no procedure takes that`;
  for (const [key, value] of Object.entries(input)) {
    const keyCodePoint = forbiddenControl(key, false);
    if (keyCodePoint) return `a field name in ${where} holds the control character ${keyCodePoint}`;
    const found = inputRefusal(value, [...path, key]);
    if (found) return found;
  }
  return null;
}
