// The GPU engine build an admin chose for a node (`ctl engine-build`): auto, cu13, cu129 or none.
// A node without a row runs auto. Sent to the node's agent when set and after every Register; what
// the node made of it comes back in its heartbeats and is never stored.
import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const nodeEngineBuilds = pgTable("node_engine_builds", {
  nodeId: text("node_id").primaryKey(),
  build: text("build").notNull(),
  setBy: text("set_by").notNull(),
  setAt: timestamp("set_at", { withTimezone: true }).notNull().defaultNow(),
});

export type NodeEngineBuildRow = typeof nodeEngineBuilds.$inferSelect;
