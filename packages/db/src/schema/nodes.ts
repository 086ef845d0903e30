// Nodes the control plane has seen. Identity is the agent's stable node id; what the node
// reported at registration is kept so the fleet is known again after a restart.
import { boolean, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { bytes } from "./columns";

export interface NodeHost {
  cpuModel: string;
  cpuCores: number;
  os: string;
  arch: string;
  driverVersion: string | null;
}

export const nodes = pgTable("nodes", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  agentVersion: text("agent_version").notNull(),
  labels: jsonb("labels").$type<Record<string, string>>().notNull().default({}),
  engines: jsonb("engines").$type<string[]>().notNull().default([]),
  features: jsonb("features").$type<string[]>().notNull().default([]),
  isSimulated: boolean("is_simulated").notNull().default(false),
  simulationProfile: text("simulation_profile"),
  host: jsonb("host").$type<NodeHost>().notNull(),
  memoryBytesTotal: bytes("memory_bytes_total").notNull(),
  diskBytesTotal: bytes("disk_bytes_total").notNull(),
  firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
});

export type NodeRow = typeof nodes.$inferSelect;
export type NewNodeRow = typeof nodes.$inferInsert;
