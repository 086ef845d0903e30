// Every refusal the control plane can answer must have words in both languages, naming only the
// parameters the server sends with it; otherwise a Turkish operator would read English (or a hole).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REFUSALS } from "@llmgw/api/schemas";
import { describe, expect, it } from "vitest";

const LOCALES_DIR = join(import.meta.dirname, "..", "src", "locales");

type Tree = Record<string, Record<string, string>>;

function translations(language: string): Map<string, string> {
  const tree = JSON.parse(
    readFileSync(join(LOCALES_DIR, language, "refusals.json"), "utf8"),
  ) as Tree;
  return new Map(
    Object.entries(tree).flatMap(([area, texts]) =>
      Object.entries(texts).map(([name, text]) => [`${area}.${name}`, text] as const),
    ),
  );
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*(?:,[^}]*)?\}\}/g)].map((match) => match[1] ?? "");
}

describe.each(["en", "tr"])("refusals in %s", (language) => {
  const texts = translations(language);

  it("translate every code the server uses", () => {
    const missing = Object.keys(REFUSALS).filter((code) => !texts.has(code));
    expect(missing).toEqual([]);
  });

  it("name only the parameters the server sends with each code", () => {
    for (const [code, names] of Object.entries(REFUSALS)) {
      const allowed: readonly string[] = names;
      const unknown = placeholders(texts.get(code) ?? "").filter((name) => !allowed.includes(name));
      expect(unknown, `${language} ${code}`).toEqual([]);
    }
  });

  it("keep no words for codes the server no longer uses", () => {
    expect([...texts.keys()].filter((code) => !Object.hasOwn(REFUSALS, code))).toEqual([]);
  });
});
