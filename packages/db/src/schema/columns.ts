// Column helpers shared by the tables, so timestamps and byte counts look the same everywhere.
import { bigint, timestamp } from "drizzle-orm/pg-core";

export const createdAt = () =>
  timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/** Byte counts exceed 2^31; JS numbers hold them exactly up to 8 PiB. */
export const bytes = (name: string) => bigint(name, { mode: "number" });
