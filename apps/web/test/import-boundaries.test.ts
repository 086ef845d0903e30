// The console reaches the control plane only through tRPC. Value imports of @llmgw/api would drag
// @trpc/server (which refuses to run in a browser) into the bundle; values come from the
// browser-safe @llmgw/api/schemas instead. @llmgw/db must never be reachable from web at all.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const APP_ROOT = join(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts"),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

function isTypeOnly(declaration: ts.ImportDeclaration): boolean {
  const clause = declaration.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

export function forbiddenImports(file: string, source: string): string[] {
  const sourceFile = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const problems: string[] = [];
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    const from = statement.moduleSpecifier.text;
    if (from.startsWith("@llmgw/db"))
      problems.push(`${file}: imports ${from}; the console must go through tRPC`);
    if (from === "@llmgw/api" && !isTypeOnly(statement))
      problems.push(`${file}: value import from @llmgw/api; use import type`);
  }
  return problems;
}

const SCAN_TIMEOUT_MS = 60_000;

describe("import boundaries", () => {
  it(
    "imports only types from @llmgw/api and nothing from @llmgw/db",
    () => {
      const files = [...sourceFiles(join(APP_ROOT, "src")), ...sourceFiles(join(APP_ROOT, "app"))];
      const problems = files.flatMap((file) =>
        forbiddenImports(relative(APP_ROOT, file), readFileSync(file, "utf8")),
      );
      expect(problems).toEqual([]);
    },
    // Parses every source file: seconds on a loaded 2-core machine, so more than the 5 s default.
    SCAN_TIMEOUT_MS,
  );

  it("recognises the forbidden forms", () => {
    expect(forbiddenImports("a.ts", 'import { TRPC_PATH } from "@llmgw/api";')).toHaveLength(1);
    expect(forbiddenImports("a.ts", 'import { createDb } from "@llmgw/db";')).toHaveLength(1);
    expect(forbiddenImports("a.ts", 'import type { NodeView } from "@llmgw/api";')).toEqual([]);
    expect(forbiddenImports("a.ts", 'import { type NodeView } from "@llmgw/api";')).toEqual([]);
    expect(forbiddenImports("a.ts", 'import { TRPC_PATH } from "@llmgw/api/schemas";')).toEqual([]);
  });
});
