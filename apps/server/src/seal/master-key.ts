// The master key that seals secrets in the store: from LLMGW_MASTER_KEY (base64 of 32 bytes), or
// from <home>/master.key, created on first run readable by the owner alone. Losing it makes every
// sealed secret unreadable, which is the point of keeping it outside the store.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { MASTER_KEY_BYTES, SealError } from "./seal";

export type MasterKeySource = { kind: "env"; base64: string } | { kind: "file"; path: string };

function decode(base64: string, where: string): Buffer {
  const key = Buffer.from(base64.trim(), "base64");
  if (key.byteLength !== MASTER_KEY_BYTES) {
    throw new SealError(
      `${where} must be base64 of ${MASTER_KEY_BYTES} bytes (it decodes to ${key.byteLength}); make one with: openssl rand -base64 32`,
    );
  }
  return key;
}

export function loadMasterKey(source: MasterKeySource): { key: Buffer; created: boolean } {
  if (source.kind === "env")
    return { key: decode(source.base64, "LLMGW_MASTER_KEY"), created: false };
  if (existsSync(source.path)) {
    const mode = statSync(source.path).mode & 0o077;
    if (mode !== 0)
      throw new SealError(
        `${source.path} is readable by others (mode ${(statSync(source.path).mode & 0o777).toString(8)}); chmod 600 it`,
      );
    return { key: decode(readFileSync(source.path, "utf8"), source.path), created: false };
  }
  mkdirSync(dirname(source.path), { recursive: true, mode: 0o700 });
  const key = randomBytes(MASTER_KEY_BYTES);
  writeFileSync(source.path, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  return { key, created: true };
}
