// The release bundle is written in ASCII, so V8 keeps its source at one byte a character.
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { asciiSource } from "../../../scripts/ascii-source.mjs";

// Code as esbuild may leave it, non-ASCII in every place a character can stand.
const SOURCE = [
  "// a comment → with “quotes” and an ellipsis …",
  "/* ‖ block */",
  'const text = "from → to";',
  "const single = 'naïve ünïcode';",
  "const template = `${text} ≤ 300 MiB`;",
  "const loose = /→+/.test('→→') && !/→/.test('->');",
  "const unicode = /^😀$/u.test('😀') && /^.$/u.test('😀');",
  "const pair = '😀'.length === 2 && '😀'.codePointAt(0) === 0x1f600;",
  "const café = 'identifier';",
  "({ text, single, template, loose, unicode, pair, café, len: text.length });",
].join("\n");

describe("asciiSource", () => {
  it("writes only ASCII", () => {
    expect(asciiSource(SOURCE)).not.toMatch(/[\u007f-\uffff]/);
    expect(SOURCE).toMatch(/[\u007f-\uffff]/);
    expect(asciiSource("plain ascii\n\tstays")).toBe("plain ascii\n\tstays");
  });

  it("means the same in strings, templates, regular expressions and identifiers", () => {
    const before = runInNewContext(SOURCE) as Record<string, unknown>;
    const after = runInNewContext(asciiSource(SOURCE)) as Record<string, unknown>;
    expect(after).toEqual(before);
    expect(after).toMatchObject({
      text: "from → to",
      template: "from → to ≤ 300 MiB",
      loose: true,
      unicode: true,
      pair: true,
      café: "identifier",
    });
  });
});
