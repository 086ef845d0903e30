// `buf breaking` guards the wire contract with agents already in the field: proto/ may grow, but
// must not renumber, retype or drop what the released image has (released/llmgw.binpb, written by
// `buf build` at a release).
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const PACKAGE_DIR = join(import.meta.dirname, "..");
const BUF = join(PACKAGE_DIR, "node_modules", ".bin", "buf");
const RELEASED_IMAGE = join("released", "llmgw.binpb");
const AGENT_PROTO = join("llmgw", "agent", "v1", "agent.proto");
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs `buf breaking <input>` against the released image; its exit status and what it printed. */
function breakingAgainstReleased(inputDir: string): { status: number; output: string } {
  try {
    const output = execFileSync(BUF, ["breaking", inputDir, "--against", RELEASED_IMAGE], {
      cwd: PACKAGE_DIR,
      encoding: "utf8",
      stdio: "pipe",
    });
    return { status: 0, output };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { status: failed.status, output: failed.stdout + failed.stderr };
  }
}

/** A copy of proto/ with `edit` applied to agent.proto, in a temp dir with its own buf.yaml. */
function editedCopy(edit: (source: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), "llmgw-proto-breaking-"));
  dirs.push(dir);
  cpSync(join(PACKAGE_DIR, "proto"), dir, { recursive: true });
  writeFileSync(join(dir, "buf.yaml"), "version: v2\nmodules:\n  - path: .\n");
  const path = join(dir, AGENT_PROTO);
  const source = readFileSync(path, "utf8");
  const edited = edit(source);
  expect(edited).not.toBe(source);
  writeFileSync(path, edited);
  return dir;
}

describe("buf breaking against the released proto", () => {
  it("accepts proto/ as it is", () => {
    expect(breakingAgainstReleased("proto")).toEqual({ status: 0, output: "" });
  });

  it("refuses a renumbered field", () => {
    const dir = editedCopy((source) =>
      source.replace("string request_id = 1;", "string request_id = 99;"),
    );
    const result = breakingAgainstReleased(dir);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/request_id/);
  });

  it("accepts a new field with a new number", () => {
    const dir = editedCopy((source) =>
      source.replace("string request_id = 1;", "string request_id = 1;\n  string trace_id = 999;"),
    );
    expect(breakingAgainstReleased(dir).status).toBe(0);
  });
});
