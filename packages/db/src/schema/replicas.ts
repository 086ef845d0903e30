// Observed state: every replica the control plane created, where it was placed and its last known
// phase. Kept so a restarted server adopts running engines instead of starting them again.
import { REPLICA_PHASE_NAMES } from "@llmgw/domain";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const replicas = pgTable(
  "replicas",
  {
    id: text("id").primaryKey(),
    model: text("model").notNull(),
    /** Which profile of the model was placed. */
    profile: text("profile").notNull(),
    modelRevision: integer("model_revision").notNull(),
    nodeId: text("node_id").notNull(),
    gpuIndexes: jsonb("gpu_indexes").$type<number[]>().notNull().default([]),
    engine: text("engine").notNull(),
    phase: text("phase", { enum: REPLICA_PHASE_NAMES }).notNull(),
    message: text("message").notNull().default(""),
    host: text("host"),
    port: integer("port"),
    createdAt: createdAt(),
    phaseChangedAt: timestamp("phase_changed_at", { withTimezone: true }).notNull().defaultNow(),
    /** Last request routed to it; null means unknown, which is not the same as idle. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [
    index("replicas_model_idx").on(table.model),
    index("replicas_node_idx").on(table.nodeId),
  ],
);

export type ReplicaRow = typeof replicas.$inferSelect;

/**
 * The shards of a replica that spans nodes (a profile with `nodes > 1`), one row per rank with its
 * own node, cards and phase. Rank 0 is the leader shard: the replica row's node, cards, host and
 * port are its. A replica on one node has no rows here.
 */
export const replicaShards = pgTable(
  "replica_shards",
  {
    replicaId: text("replica_id")
      .notNull()
      .references(() => replicas.id, { onDelete: "cascade" }),
    rank: integer("rank").notNull(),
    nodeId: text("node_id").notNull(),
    gpuIndexes: jsonb("gpu_indexes").$type<number[]>().notNull().default([]),
    phase: text("phase", { enum: REPLICA_PHASE_NAMES }).notNull(),
    message: text("message").notNull().default(""),
    phaseChangedAt: timestamp("phase_changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.replicaId, table.rank] }),
    index("replica_shards_node_idx").on(table.nodeId),
  ],
);

export type ReplicaShardRow = typeof replicaShards.$inferSelect;
