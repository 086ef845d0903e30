// V8 keeps a script's source in memory for as long as the script lives (lazy compilation and
// Function.prototype.toString read it), as one byte a character only while every character is
// Latin-1: a single "→" in a comment makes the whole 8.8 MB bundle two bytes a character, about
// 8.4 MiB more heap in every release process (server, agent, sim-engine). esbuild already escapes
// what is not ASCII in code (its default charset); comments it keeps as they are.

/**
 * `source` with every code unit above 0x7e written as a `\uXXXX` escape. Inside a string, a
 * template's cooked value, a regular expression (with or without the u flag) or an identifier the
 * escape means the same character; inside a comment it is only text. (A template's raw text, as
 * String.raw reads it, would change: esbuild's output never has such a character there.)
 */
export function asciiSource(source) {
  return source.replace(
    /[\u007f-\uffff]/g,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
