// Small secrets kept in a home directory (mode 0600), random tokens and constant-time checks.
// Node-only; shared by the server and by `llmgw dev`, which prepares the server's secrets before
// starting it, so the CLI need not reach into the server's internals.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString("base64url");
}

/** Reads a secret file, creating it with a fresh random value on first use. */
export function readOrCreateSecretFile(path: string): { value: string; created: boolean } {
  if (existsSync(path)) return { value: readFileSync(path, "utf8").trim(), created: false };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const value = randomToken();
  writeFileSync(path, `${value}\n`, { mode: 0o600, flag: "wx" });
  return { value, created: true };
}

/** Compares two strings without leaking where they differ (hashing first evens the lengths). */
export function constantTimeEqual(a: string, b: string): boolean {
  const da = createHash("sha256").update(a).digest();
  const db = createHash("sha256").update(b).digest();
  return timingSafeEqual(da, db) && a.length === b.length;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
