// Facility domains held by an operator (`ctl facility hold rack=r12 [--drain]`): nothing new is
// placed in them, and with drain their replicas are moved elsewhere with surge.
import { boolean, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

export const facilityHolds = pgTable(
  "facility_holds",
  {
    kind: text("kind").notNull(),
    value: text("value").notNull(),
    isDraining: boolean("is_draining").notNull().default(false),
    heldBy: text("held_by").notNull(),
    heldAt: timestamp("held_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.value] })],
);

export type FacilityHoldRow = typeof facilityHolds.$inferSelect;
