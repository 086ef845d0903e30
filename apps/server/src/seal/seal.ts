// Sealing: AES-256-GCM under the master key. The secret's name is bound in as associated data,
// so a sealed value copied under another name does not open either. Anything that does not
// authenticate fails closed with an error that says what to check, never a partial value.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION_PREFIX = "v1:";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const MASTER_KEY_BYTES = 32;

export class SealError extends Error {
  override readonly name = "SealError";
}

function checkKey(masterKey: Uint8Array): void {
  if (masterKey.byteLength !== MASTER_KEY_BYTES) {
    throw new SealError(
      `the master key is ${masterKey.byteLength} bytes; AES-256-GCM needs exactly ${MASTER_KEY_BYTES}`,
    );
  }
}

export function seal(masterKey: Uint8Array, name: string, plaintext: Uint8Array): string {
  checkKey(masterKey);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", masterKey, nonce);
  cipher.setAAD(Buffer.from(name, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return VERSION_PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64");
}

export function unseal(masterKey: Uint8Array, name: string, sealed: string): Buffer {
  checkKey(masterKey);
  if (!sealed.startsWith(VERSION_PREFIX)) {
    throw new SealError(
      `sealed secret "${name}" has an unknown format; it was not written by this version of llmgw`,
    );
  }
  const bytes = Buffer.from(sealed.slice(VERSION_PREFIX.length), "base64");
  if (bytes.byteLength < NONCE_BYTES + TAG_BYTES)
    throw new SealError(`sealed secret "${name}" is truncated`);
  const nonce = bytes.subarray(0, NONCE_BYTES);
  const tag = bytes.subarray(bytes.byteLength - TAG_BYTES);
  const body = bytes.subarray(NONCE_BYTES, bytes.byteLength - TAG_BYTES);
  try {
    const decipher = createDecipheriv("aes-256-gcm", masterKey, nonce);
    decipher.setAAD(Buffer.from(name, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new SealError(
      `sealed secret "${name}" does not open: the master key is not the one it was sealed with, or the stored value was altered; ` +
        "start the server with the original LLMGW_MASTER_KEY or <home>/master.key",
    );
  }
}
