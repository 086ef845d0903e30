// The example definitions shipped in examples/ are read by the CLI's file reader and accepted by
// the catalog schema, so the README's commands work as written.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseModelDefinition } from "@llmgw/domain";
import { REPO_ROOT } from "../paths";
import { readDefinitions } from "./model-file";

const EXAMPLES = join(REPO_ROOT, "examples");

describe("examples/", () => {
  const files = readdirSync(EXAMPLES).filter((name) => /\.(ya?ml|json)$/.test(name));

  it("has example definitions", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)("%s is a valid model definition", (file) => {
    for (const definition of readDefinitions(join(EXAMPLES, file))) {
      const parsed = parseModelDefinition(definition);
      expect(parsed.ok ? [] : parsed.errors).toEqual([]);
    }
  });
});
