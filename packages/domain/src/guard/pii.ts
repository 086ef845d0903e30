// Personal data the guard redacts without asking a model: e-mail addresses, phone numbers, IBANs
// (mod-97 checked), Turkish TC kimlik numbers (both check digits) and card numbers (Luhn). A
// number that fails its checksum is left alone, so order numbers and timestamps pass untouched.

export type PiiKind = "email" | "phone" | "iban" | "tc_kimlik" | "card";

export interface PiiMatch {
  kind: PiiKind;
  start: number;
  end: number;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b/g;
// Two letters, two check digits, then 11-30 letters or digits, optionally in groups of four.
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g;
const CARD = /(?<![\d-])\d{4}(?:[ -]?\d{4}){2}(?:[ -]?\d{1,4}){1,2}(?![\d-])/g;
const TC_KIMLIK = /(?<!\d|\d[.,-])[1-9]\d{10}(?!\d|[.,-]\d)/g;
// A number written as a phone number: a leading + or 0, then 9-14 more digits in groups.
const PHONE =
  /(?<![\w+.-])(?:\+\d{1,3}|0)[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]?\d{2,4}){2,4}(?![\w.-])/g;

export function ibanChecksumOk(text: string): boolean {
  const compact = text.replace(/ /g, "");
  if (compact.length < 15 || compact.length > 34) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** The two check digits of a TC kimlik number, as the population register computes them. */
export function tcKimlikOk(digits: string): boolean {
  if (!/^[1-9]\d{10}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  const at = (i: number) => d[i] ?? 0;
  const odd = at(0) + at(2) + at(4) + at(6) + at(8);
  const even = at(1) + at(3) + at(5) + at(7);
  const tenth = (((odd * 7 - even) % 10) + 10) % 10;
  if (tenth !== at(9)) return false;
  const sum = d.slice(0, 10).reduce((a, b) => a + b, 0);
  return sum % 10 === at(10);
}

export function luhnOk(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function matchesOf(
  text: string,
  pattern: RegExp,
  kind: PiiKind,
  accept: (found: string) => boolean,
): PiiMatch[] {
  const found: PiiMatch[] = [];
  for (const match of text.matchAll(pattern)) {
    if (accept(match[0]))
      found.push({ kind, start: match.index, end: match.index + match[0].length });
  }
  return found;
}

function phoneDigitsOk(found: string): boolean {
  const digits = found.replace(/\D/g, "").length;
  return digits >= 10 && digits <= 15;
}

/**
 * Every piece of personal data in the text, earliest first, none overlapping. Checked kinds come
 * first so that an IBAN's digits are not also taken for a phone number.
 */
export function findPii(text: string): PiiMatch[] {
  const candidates = [
    ...matchesOf(text, IBAN, "iban", ibanChecksumOk),
    ...matchesOf(text, EMAIL, "email", () => true),
    ...matchesOf(text, CARD, "card", (found) => {
      const digits = found.replace(/\D/g, "");
      return digits.length >= 13 && digits.length <= 19 && luhnOk(digits);
    }),
    ...matchesOf(text, TC_KIMLIK, "tc_kimlik", tcKimlikOk),
    ...matchesOf(text, PHONE, "phone", phoneDigitsOk),
  ];
  const kept: PiiMatch[] = [];
  for (const candidate of candidates) {
    if (kept.some((k) => candidate.start < k.end && k.start < candidate.end)) continue;
    kept.push(candidate);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** The text with each piece of personal data replaced by `[redacted:KIND]`, and the kinds found. */
export function redactPii(text: string): { text: string; kinds: PiiKind[] } {
  const found = findPii(text);
  let out = "";
  let at = 0;
  for (const match of found) {
    out += `${text.slice(at, match.start)}[redacted:${match.kind}]`;
    at = match.end;
  }
  out += text.slice(at);
  return { text: out, kinds: [...new Set(found.map((m) => m.kind))] };
}
