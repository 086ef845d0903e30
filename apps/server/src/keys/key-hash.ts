// Making and checking API keys. The stored hash is keyed with a sealed server pepper, so a copy
// of the table cannot be brute-forced without the master key as well; checks compare in constant time.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { API_KEY_PREFIX_LENGTH, API_KEY_SECRET_LENGTH, formatApiKey } from "@llmgw/domain";

export const API_KEY_PEPPER_SECRET = "api-key-pepper";

export function hashApiKey(pepper: Uint8Array, key: string): string {
  return createHmac("sha256", pepper).update(key, "utf8").digest("hex");
}

export function newApiKey(): { key: string; prefix: string } {
  const prefix = randomBytes(API_KEY_PREFIX_LENGTH / 2).toString("hex");
  const key = formatApiKey(prefix, randomBytes(API_KEY_SECRET_LENGTH / 2).toString("hex"));
  return { key, prefix };
}

/** Both are hex digests of the same length; anything else is simply unequal. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
