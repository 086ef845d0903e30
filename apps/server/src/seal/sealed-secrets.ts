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

/** Seals and stores a secret a person entered, replacing any earlier value. */
export async function storeSecret(
  db: Database,
  masterKey: Uint8Array,
  name: string,
  plaintext: string,
): Promise<void> {
  const sealed = seal(masterKey, name, Buffer.from(plaintext, "utf8"));
  await db
    .insert(sealedSecrets)
    .values({ name, sealed })
    .onConflictDoUpdate({ target: sealedSecrets.name, set: { sealed } });
}

/** Opens a stored secret; null when none is stored. A wrong master key fails closed (throws). */
export async function readSecret(
  db: Database,
  masterKey: Uint8Array,
  name: string,
): Promise<string | null> {
  const [row] = await db.select().from(sealedSecrets).where(eq(sealedSecrets.name, name));
  return row ? unseal(masterKey, name, row.sealed).toString("utf8") : null;
}
