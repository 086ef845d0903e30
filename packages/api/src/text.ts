// Strings the API takes: a NUL reaches the database driver as an error that would carry the SQL,
// and a line break in a name forges lines wherever the name is logged. Every string field is
// either one line (names, usernames, URLs, secrets) or text that may span lines (a PEM
// certificate, a description), and neither may hold any other control character.
import { z } from "zod";

/** C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators. */
export function isControlCode(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** U+0000 for a NUL: the character named so a person can find it in what they sent. */
function codePointOf(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The first control character in `value` that is not allowed, as U+XXXX, or null. Text over
 * several lines may hold tabs and line breaks; nothing may hold the rest.
 */
function forbiddenControl(value: string, allowLineBreaks: boolean): string | null {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    const isLineBreak = code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN;
    if (isControlCode(code) && !(allowLineBreaks && isLineBreak)) return codePointOf(code);
  }
  return null;
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
