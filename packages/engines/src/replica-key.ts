// Replica keys are derived, not stored: the router must send the right key to replicas this process
// never started (adopted after a restart, placed by another control plane), and a function of one
// shared secret gives that without a table to keep in step. A key taken from one node opens only
// that replica.
import { createHmac } from "node:crypto";

const MIN_SECRET_BYTES = 16;
// A label inside the MAC keeps these keys apart from anything else the same secret might sign.
const DOMAIN_LABEL = "llmgw replica key v1\0";

/** HMAC-SHA256(secret, label + replicaId), base64url without padding (43 characters). */
export function deriveReplicaKey(secret: Uint8Array, replicaId: string): string {
  if (secret.byteLength < MIN_SECRET_BYTES) {
    throw new Error(
      `replica-key secret is ${secret.byteLength} bytes; at least ${MIN_SECRET_BYTES} are needed, or every replica key can be guessed`,
    );
  }
  if (replicaId.length === 0)
    throw new Error("replica id is empty; a key needs the replica it opens");
  return createHmac("sha256", secret)
    .update(DOMAIN_LABEL + replicaId, "utf8")
    .digest("base64url");
}
