// The two languages must stay interchangeable: same files, same keys, nothing left empty, and the
// same {{placeholders}} in each string, or a Turkish operator would see a raw key or a hole.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const LOCALES_DIR = join(import.meta.dirname, "..", "src", "locales");
const LANGUAGES = ["en", "tr"] as const;

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") entries.set(path, value);
    else for (const [inner, text] of flatten(value, path)) entries.set(inner, text);
  }
  return entries;
}

function load(language: string, file: string): Map<string, string> {
  return flatten(JSON.parse(readFileSync(join(LOCALES_DIR, language, file), "utf8")) as Tree);
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*(?:,[^}]*)?\}\}/g)]
    .map((match) => match[1] ?? "")
    .sort();
}

const files = readdirSync(join(LOCALES_DIR, "en")).filter((name) => name.endsWith(".json"));

describe("locale files", () => {
  it("exist in the same set for every language", () => {
    expect(files.length).toBeGreaterThan(0);
    for (const language of LANGUAGES) {
      expect(
        readdirSync(join(LOCALES_DIR, language))
          .filter((name) => name.endsWith(".json"))
          .sort(),
      ).toEqual([...files].sort());
    }
  });

  describe.each(files)("%s", (file) => {
    const en = load("en", file);
    const tr = load("tr", file);

    it("has identical key sets in en and tr", () => {
      expect([...tr.keys()].sort()).toEqual([...en.keys()].sort());
    });

    it("has no empty values", () => {
      for (const language of LANGUAGES) {
        const empty = [...load(language, file)]
          .filter(([, text]) => text.trim() === "")
          .map(([key]) => key);
        expect(empty, `${language}/${file}`).toEqual([]);
      }
    });

    it("uses the same placeholders in both languages", () => {
      for (const [key, text] of en) {
        expect(placeholders(tr.get(key) ?? ""), `${file}: ${key}`).toEqual(placeholders(text));
      }
    });
  });
});

describe("Turkish terms", () => {
  // One word for one thing: "control plane" was both "kontrol düzlemi" and "denetim düzlemi".
  it("calls the control plane kontrol düzlemi everywhere", () => {
    const stray: string[] = [];
    for (const file of files) {
      const en = load("en", file);
      for (const [key, text] of load("tr", file)) {
        const english = en.get(key) ?? "";
        const saysTerm = /kontrol düzlem/i.test(text);
        if (/(denetim|yönetim) düzlem/i.test(text) || (/control plane/i.test(english) && !saysTerm))
          stray.push(`${file}: ${key}`);
      }
    }
    expect(stray).toEqual([]);
  });
});
