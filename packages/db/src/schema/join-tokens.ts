// Join tokens: what a new node presents once to get its certificate (the kubeadm model). The
// token text is `<id>.<secret>`; the id is short and public (lists and revocation name it), and
// only the SHA-256 of the secret is stored, so a copy of this table joins nothing.
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const joinTokens = pgTable("join_tokens", {
  id: text("id").primaryKey(),
  /** hex SHA-256 of the secret part. */
  secretHash: text("secret_hash").notNull(),
  description: text("description").notNull().default(""),
  createdBy: text("created_by").notNull(),
  createdAt: createdAt(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  /** Null: any number of joins until it expires. */
  usesMax: integer("uses_max"),
  uses: integer("uses").notNull().default(0),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
});

export type JoinTokenRow = typeof joinTokens.$inferSelect;
