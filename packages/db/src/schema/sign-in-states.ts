// Single sign-on attempts in flight: the state (hashed), nonce and PKCE verifier of one
// authorization request. A row is deleted when its callback arrives, so a state works once.
import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const signInStates = pgTable("sign_in_states", {
  stateHash: text("state_hash").primaryKey(),
  nonce: text("nonce").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  returnTo: text("return_to").notNull().default("/"),
  createdAt: createdAt(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});
