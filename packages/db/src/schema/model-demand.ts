// When a request last asked for each model, as standbys saw it: the leader holds demand in memory
// (on-demand starts, idle eviction), and a request that reached a standby reaches the leader
// through this row. One row per model, only ever moved forward.
import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const modelDemand = pgTable("model_demand", {
  model: text("model").primaryKey(),
  demandedAt: timestamp("demanded_at", { withTimezone: true }).notNull(),
});
