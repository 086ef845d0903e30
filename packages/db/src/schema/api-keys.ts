// API keys for /v1. Only a keyed hash (HMAC-SHA256 under the server's sealed pepper) is stored;
// the visible prefix finds the row, so a copy of this table opens nothing.
import { boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    prefix: text("prefix").notNull().unique(),
    /** hex HMAC-SHA256(pepper, the whole key). */
    keyHash: text("key_hash").notNull(),
    /** Who the key belongs to: `team:ml`, `user:ada`, `project:search`. */
    owner: text("owner").notNull(),
    /** Model names or `*` patterns the key may use. */
    models: text("models").array().notNull(),
    requestsPerMinute: integer("requests_per_minute"),
    tokensPerMinute: integer("tokens_per_minute"),
    concurrentMax: integer("concurrent_max"),
    /** `local`: requests made with this key never go to a peer cluster; `any`: they may. */
    residency: text("residency").$type<"any" | "local">().notNull().default("any"),
    /** What this key sends must not be kept anywhere outside this cluster: never sent to a peer. */
    noStore: boolean("no_store").notNull().default(false),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [index("api_keys_owner_idx").on(table.owner)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
