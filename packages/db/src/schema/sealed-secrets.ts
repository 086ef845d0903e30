// Secrets sealed with AES-256-GCM under the master key (the replica-key secret now; SSO and MCP
// credentials later). Only ciphertext is stored; a wrong key or a flipped byte fails to open.
import { pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const sealedSecrets = pgTable("sealed_secrets", {
  name: text("name").primaryKey(),
  /** base64 of nonce ‖ ciphertext ‖ tag, with a version prefix. */
  sealed: text("sealed").notNull(),
  createdAt: createdAt(),
});
