// What an operator set on a node in the store: labels laid over the agent's own (`ctl label`), and
// whether it is cordoned (nothing new placed) or draining (its replicas moved off with surge).
// Kept apart from `nodes`, which holds what the agent reports and is written at each register.
import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const nodeFacility = pgTable("node_facility", {
  nodeId: text("node_id").primaryKey(),
  labels: jsonb("labels").$type<Record<string, string>>().notNull().default({}),
  /** null, "cordoned" or "draining". */
  cordon: text("cordon"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type NodeFacilityRow = typeof nodeFacility.$inferSelect;
