// Sign-in sessions and tokens made in the console for the CLI. The key is a SHA-256 of the token,
// so a copy of this table opens nothing.
import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { users } from "./users";

export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `session` from signing in; `token` made in the console for `llmgw ctl login --token`. */
    kind: text("kind", { enum: ["session", "token"] })
      .notNull()
      .default("session"),
    /** A token's name, or how the session was opened (`password`, `entra`, `ldap`). */
    label: text("label").notNull().default(""),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

export type SessionRow = typeof sessions.$inferSelect;
