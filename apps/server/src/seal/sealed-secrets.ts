// Secrets kept sealed in the store, made on first use. The replica-key secret lives here: every
// control plane sharing the store derives the same replica keys from it.
import { randomBytes } from "node:crypto";
import { eq, sealedSecrets, type Database } from "@llmgw/db";
import { seal, unseal } from "./seal";

export const REPLICA_KEY_SECRET = "replica-key-secret";
const SECRET_BYTES = 32;

/** Opens the named secret, creating it on first use; fails closed when it does not open. */
export async function loadOrCreateSecret(
  db: Database,
  masterKey: Uint8Array,
  name: string,
): Promise<Buffer> {
  const read = async () =>
    (await db.select().from(sealedSecrets).where(eq(sealedSecrets.name, name)))[0];
  const existing = await read();
  if (existing) return unseal(masterKey, name, existing.sealed);
  const sealed = seal(masterKey, name, randomBytes(SECRET_BYTES));
  // Two control planes starting together: the first write wins and both read it back.
  await db.insert(sealedSecrets).values({ name, sealed }).onConflictDoNothing();
  const row = await read();
  if (!row) throw new Error(`sealed secret "${name}" could not be stored`);
  return unseal(masterKey, name, row.sealed);
}
