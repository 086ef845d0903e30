/** `source` with every code unit above 0x7e written as a `\uXXXX` escape (see ascii-source.mjs). */
export function asciiSource(source: string): string;
