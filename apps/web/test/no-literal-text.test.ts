// Every word on screen must come from the locale files, so the Turkish console is complete.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { scanJsxSource } from "./jsx-text-scan";

const APP_ROOT = join(import.meta.dirname, "..");

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".tsx"))
    .map((entry) => join(entry.parentPath, entry.name));
}

const SCAN_TIMEOUT_MS = 60_000;

describe("JSX literal text scan", () => {
  it(
    "finds no untranslated text in src/ and app/",
    () => {
      const files = [...tsxFiles(join(APP_ROOT, "src")), ...tsxFiles(join(APP_ROOT, "app"))];
      expect(files.length).toBeGreaterThan(5);
      const violations = files.flatMap((file) =>
        scanJsxSource(relative(APP_ROOT, file), readFileSync(file, "utf8")),
      );
      expect(violations).toEqual([]);
    },
    // Parses every source file: seconds on a loaded 2-core machine, so more than the 5 s default.
    SCAN_TIMEOUT_MS,
  );

  it("reports text nodes, visible attributes and rendered string expressions", () => {
    const source = `
      export function Bad({ open }: { open: boolean }) {
        return (
          <div title={open ? "Close" : t("a")}>
            Hello there
            <input placeholder="Name" aria-label={\`Filter \${open}\`} />
            <img alt="Logo" />
            {"Plain string"}
            {open && "Shown when open"}
          </div>
        );
      }`;
    const texts = scanJsxSource("bad.tsx", source).map((violation) => violation.text);
    expect(texts).toEqual([
      "Close",
      "Hello there",
      "Name",
      "Filter",
      "Logo",
      "Plain string",
      "Shown when open",
    ]);
  });

  it("accepts translated text, symbols and strings that are only compared", () => {
    const source = `
      export function Good({ dir, keys }: { dir: string; keys: string[] }) {
        return (
          <div className="grid wide" data-testid="nodes-table" title={t("title")}>
            <span>{t("label", { count: 2 })}</span>
            <span>{"/"}</span>
            {dir === "asc" ? "▲" : "▼"}
            {keys.map((key) => <kbd key={key}>{key}</kbd>)}
            {\`\${dir} · \${keys.length}\`}
          </div>
        );
      }`;
    expect(scanJsxSource("good.tsx", source)).toEqual([]);
  });
});
