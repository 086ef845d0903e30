// One row per lease (e.g. "control-plane"): which process holds it and until when. Claimed and
// renewed in one statement against the database's clock (apps/server/src/leader/lease.ts), so
// two control planes on one store can never both hold it.
import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const leaderLease = pgTable("leader_lease", {
  name: text("name").primaryKey(),
  /** Random per process (randomUUID), so a restarted process never inherits its old claim. */
  owner: text("owner").notNull(),
  /** For humans: host:port or a label. */
  ownerName: text("owner_name").notNull(),
  acquiredAt: timestamp("acquired_at", { withTimezone: true }).notNull().defaultNow(),
  renewedAt: timestamp("renewed_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export type LeaderLeaseRow = typeof leaderLease.$inferSelect;
