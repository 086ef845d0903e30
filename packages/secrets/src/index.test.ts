import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { constantTimeEqual, randomToken, readOrCreateSecretFile, sha256Hex } from "./index";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "llmgw-secrets-"));
  dirs.push(dir);
  return dir;
}

describe("readOrCreateSecretFile", () => {
  it("creates the file (and its folder) owner-only on first use, then reads the same value", () => {
    const path = join(tempDir(), "nested", "join-token");
    const first = readOrCreateSecretFile(path);
    expect(first.created).toBe(true);
    expect(first.value).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8")).toBe(`${first.value}\n`);
    expect(readOrCreateSecretFile(path)).toEqual({ value: first.value, created: false });
  });
});

describe("randomToken", () => {
  it("encodes the asked number of random bytes as base64url", () => {
    expect(randomToken(3)).toMatch(/^[A-Za-z0-9_-]{4}$/);
    expect(randomToken()).not.toBe(randomToken());
  });
});

describe("constantTimeEqual", () => {
  it("is true only for equal strings, whatever their lengths", () => {
    expect(constantTimeEqual("secret", "secret")).toBe(true);
    expect(constantTimeEqual("secret", "secreT")).toBe(false);
    expect(constantTimeEqual("secret", "secret-longer")).toBe(false);
    expect(constantTimeEqual("", "")).toBe(true);
  });
});

describe("sha256Hex", () => {
  it("hashes to the well-known hex digest", () => {
    expect(sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
});
