// ECDSA P-256 key pairs through Node's WebCrypto, and their PEM forms.
import type { webcrypto } from "node:crypto";
import { crypto, x509 } from "./x509";

type CryptoKey = webcrypto.CryptoKey;

const KEY_ALGORITHM: webcrypto.EcKeyGenParams = { name: "ECDSA", namedCurve: "P-256" };
export const SIGNING_ALGORITHM: webcrypto.EcdsaParams = { name: "ECDSA", hash: "SHA-256" };

export function generateKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return crypto.subtle.generateKey(KEY_ALGORITHM, true, ["sign", "verify"]);
}

export async function privateKeyToPem(key: CryptoKey): Promise<string> {
  const der = await crypto.subtle.exportKey("pkcs8", key);
  return x509.PemConverter.encode(der, "PRIVATE KEY");
}

/** Reads a PKCS#8 P-256 private key; a key of another kind is refused with a reason. */
export async function privateKeyFromPem(pem: string): Promise<CryptoKey> {
  const der = x509.PemConverter.decodeFirst(pem);
  try {
    return await crypto.subtle.importKey("pkcs8", der, KEY_ALGORITHM, true, ["sign"]);
  } catch {
    throw new Error("the private key is not a PKCS#8 ECDSA P-256 key");
  }
}
