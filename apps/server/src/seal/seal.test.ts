import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadMasterKey } from "./master-key";
import { SealError, seal, unseal } from "./seal";

const key = randomBytes(32);
const secret = Buffer.from("the replica-key secret, 32 bytes");

describe("seal", () => {
  it("opens what it sealed, and never stores the plaintext", () => {
    const sealed = seal(key, "replica-key-secret", secret);
    expect(sealed.startsWith("v1:")).toBe(true);
    expect(sealed).not.toContain(secret.toString("base64"));
    expect(unseal(key, "replica-key-secret", sealed).equals(secret)).toBe(true);
  });

  it("fails closed under a wrong key", () => {
    const sealed = seal(key, "replica-key-secret", secret);
    expect(() => unseal(randomBytes(32), "replica-key-secret", sealed)).toThrow(
      /does not open: the master key is not the one/,
    );
  });

  it("fails closed when any byte is flipped", () => {
    const sealed = seal(key, "s", secret);
    const bytes = Buffer.from(sealed.slice(3), "base64");
    for (const position of [0, 12, bytes.length - 1]) {
      const flipped = Buffer.from(bytes);
      flipped[position] = (flipped[position] ?? 0) ^ 0x01;
      expect(() => unseal(key, "s", `v1:${flipped.toString("base64")}`)).toThrow(SealError);
    }
  });

  it("does not open under another name", () => {
    expect(() => unseal(key, "other", seal(key, "s", secret))).toThrow(SealError);
  });

  it("refuses a key of the wrong size and an unknown format", () => {
    expect(() => seal(randomBytes(16), "s", secret)).toThrow(/exactly 32/);
    expect(() => unseal(key, "s", "plain")).toThrow(/unknown format/);
  });
});

describe("loadMasterKey", () => {
  it("creates <home>/master.key with mode 0600 on first run and reads the same key back", () => {
    const path = join(mkdtempSync(join(tmpdir(), "seal-")), "home", "master.key");
    const first = loadMasterKey({ kind: "file", path });
    expect(first.created).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const second = loadMasterKey({ kind: "file", path });
    expect(second.created).toBe(false);
    expect(second.key.equals(first.key)).toBe(true);
    expect(readFileSync(path, "utf8").trim()).toBe(first.key.toString("base64"));
  });

  it("refuses a key file others can read", () => {
    const path = join(mkdtempSync(join(tmpdir(), "seal-")), "master.key");
    writeFileSync(path, randomBytes(32).toString("base64"), { mode: 0o644 });
    expect(() => loadMasterKey({ kind: "file", path })).toThrow(/chmod 600/);
  });

  it("takes LLMGW_MASTER_KEY as base64 of 32 bytes and names it when it is not", () => {
    expect(loadMasterKey({ kind: "env", base64: key.toString("base64") }).key.equals(key)).toBe(
      true,
    );
    expect(() => loadMasterKey({ kind: "env", base64: "c2hvcnQ=" })).toThrow(
      /LLMGW_MASTER_KEY must be base64 of 32 bytes/,
    );
  });
});
