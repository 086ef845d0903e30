// Observed state per model that must survive a restart: consecutive failed starts and whether the
// model is parked (with the error that parked it) until its definition changes or someone retries.
import { boolean, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const modelStatus = pgTable("model_status", {
  name: text("name").primaryKey(),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  isParked: boolean("is_parked").notNull().default(false),
  lastError: text("last_error"),
  /** The definition revision the failures were counted against; a new revision unparks. */
  revision: integer("revision").notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type ModelStatusRow = typeof modelStatus.$inferSelect;
