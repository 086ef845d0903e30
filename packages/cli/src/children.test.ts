import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startRestartingChild } from "./children";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A child that appends a line per start and exits 75 the first `restarts` times, then `last`. */
function script(restarts: number, last: number): { path: string; starts: () => number } {
  const dir = mkdtempSync(join(tmpdir(), "llmgw-children-"));
  dirs.push(dir);
  const log = join(dir, "starts");
  writeFileSync(log, "");
  const path = join(dir, "child.mjs");
  writeFileSync(
    path,
    `import { appendFileSync, readFileSync } from "node:fs";
appendFileSync(${JSON.stringify(log)}, "start\\n");
const starts = readFileSync(${JSON.stringify(log)}, "utf8").split("\\n").filter(Boolean).length;
process.exit(starts <= ${restarts} ? 75 : ${last});
`,
  );
  return { path, starts: () => readFileSync(log, "utf8").split("\n").filter(Boolean).length };
}

describe("llmgw dev's restarting children", () => {
  it("starts a child again after it exits 75, as systemd's Restart=always would", async () => {
    const child = script(2, 3);
    const lines: string[] = [];
    const supervised = startRestartingChild("agent-1", [child.path], process.env, {
      quiet: true,
      isStopping: () => false,
      log: (line) => void lines.push(line),
    });
    expect(await supervised.exited).toBe(3);
    expect(child.starts()).toBe(3);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/agent-1 exited with 75 \(upgraded\); starting it again/);
  });

  it("does not start it again while dev is stopping", async () => {
    const child = script(5, 0);
    const supervised = startRestartingChild("server", [child.path], process.env, {
      quiet: true,
      isStopping: () => true,
      log: () => undefined,
    });
    expect(await supervised.exited).toBe(75);
    expect(child.starts()).toBe(1);
  });
});
