import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeTestRelease } from "@llmgw/release/testing";
import { afterEach, describe, expect, it } from "vitest";
import { checkAgainstSums } from "./releases";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "llmgw-ctl-release-"));
  dirs.push(dir);
  return dir;
}

describe("ctl release add's local check", () => {
  it("answers the hash of a release that matches its SHA256SUMS", async () => {
    const dir = tempDir();
    const release = await writeTestRelease(dir, "1.3.0");
    expect(await checkAgainstSums(release.file, join(dir, "SHA256SUMS"))).toBe(release.sha256);
  });

  it("refuses a release that differs from its SHA256SUMS line, before sending anything", async () => {
    const dir = tempDir();
    const release = await writeTestRelease(dir, "1.3.0");
    writeFileSync(join(dir, "SHA256SUMS"), `${"0".repeat(64)}  llmgw-1.3.0-linux-x64.tar.gz\n`);
    await expect(checkAgainstSums(release.file, join(dir, "SHA256SUMS"))).rejects.toThrow(
      new RegExp(`its SHA-256 is ${release.sha256}, the file says 0{64}`),
    );
  });

  it("refuses a SHA256SUMS without the file, and names a missing one", async () => {
    const dir = tempDir();
    const release = await writeTestRelease(dir, "1.3.0");
    writeFileSync(join(dir, "other"), `${"0".repeat(64)}  llmgw-9.0.0-linux-x64.tar.gz\n`);
    await expect(checkAgainstSums(release.file, join(dir, "other"))).rejects.toThrow(
      /has no line for llmgw-1.3.0/,
    );
    await expect(checkAgainstSums(release.file, join(dir, "missing"))).rejects.toThrow(
      /cannot read .*missing/,
    );
  });
});
