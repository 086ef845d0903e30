// The shape of an API key: `llmgw_<prefix>_<secret>_<checksum>`. The prefix finds the stored row;
// the secret is what the keyed hash covers; the CRC-32 checksum lets a scanner recognise a leaked
// key offline without asking the server.
import { must } from "../must";

export const API_KEY_PREFIX_LENGTH = 12;
export const API_KEY_SECRET_LENGTH = 40;
const KEY_PATTERN = /^llmgw_([0-9a-f]{12})_([0-9a-f]{40})_([0-9a-f]{8})$/;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32Hex(text: string): string {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text))
    crc = must(CRC_TABLE[(crc ^ byte) & 0xff], "CRC-32 table entry") ^ (crc >>> 8);
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, "0");
}

/** Builds a key from its hex prefix and hex secret. */
export function formatApiKey(prefix: string, secret: string): string {
  const body = `llmgw_${prefix}_${secret}`;
  return `${body}_${crc32Hex(body)}`;
}

export type ParsedApiKey =
  { ok: true; prefix: string; secret: string } | { ok: false; why: string };

export function parseApiKey(key: string): ParsedApiKey {
  const match = KEY_PATTERN.exec(key);
  if (!match)
    return { ok: false, why: "not an llmgw API key (expected llmgw_<prefix>_<secret>_<checksum>)" };
  const [, prefix, secret, checksum] = match as unknown as [string, string, string, string];
  if (crc32Hex(`llmgw_${prefix}_${secret}`) !== checksum)
    return { ok: false, why: "the key's checksum does not match; it was mistyped or cut short" };
  return { ok: true, prefix, secret };
}
