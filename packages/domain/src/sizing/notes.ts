// Every sentence sizing says goes through here, so the English text and the code with parameters
// the console translates (`sizing.context_shrunk` and its numbers) can never say different things.
import type { SizingNote } from "./types";

export function note(
  code: `sizing.${string}`,
  params: Record<string, string | number>,
  text: string,
): SizingNote {
  return { code, params, text };
}

const GB = 1e9;

/** Bytes as decimal gigabytes with one decimal, the way card memory is sold: 16.1. */
export function gbOf(bytes: number): number {
  return Math.round((bytes / GB) * 10) / 10;
}

/** A parameter count in billions with one decimal: 8.0. */
export function billionsOf(parameters: number): number {
  return Math.round((parameters / 1e9) * 10) / 10;
}

/** A token count with thousands separators, for the English sentences: 131,072. */
export function tokens(count: number): string {
  return count.toLocaleString("en-US");
}

export function cardsWord(count: number): string {
  return count === 1 ? "1 card" : `${count} cards`;
}
