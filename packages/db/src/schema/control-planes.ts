// One row per running control-plane process: where it answers, which version it runs, and when it
// last said it was alive. Standbys read the leader's peer address here to pass `/api` on; agents
// learn every control plane's agent address from it; `ctl control-planes` lists it. The owner is
// the process's random lease owner id, so the row of the lease holder is the leader's.
import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const controlPlanes = pgTable("control_planes", {
  /** The process's lease owner id (random per process). */
  owner: text("owner").primaryKey(),
  /** For humans: host:port. */
  name: text("name").notNull(),
  /** Where its HTTP port answers (console, CLI, /v1), e.g. http://10.0.0.5:8080. */
  apiUrl: text("api_url").notNull(),
  /** Its agent port over HTTPS, where other control planes reach it with mutual TLS. */
  peerUrl: text("peer_url").notNull(),
  /** The wss:// addresses agents connect to. */
  agentUrls: jsonb("agent_urls").$type<string[]>().notNull().default([]),
  version: text("version").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
});

export type ControlPlaneRow = typeof controlPlanes.$inferSelect;
