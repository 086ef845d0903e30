// What happened in the fleet, for the console's Events page and `llmgw ctl events`. A row holds
// structured params, never an English sentence: the console renders it per language from
// kind + params. Retention is bounded by the server (newest rows, a maximum age).
import { bigserial, boolean, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const events = pgTable(
  "events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** `node.unreachable`, `replica.started`, `key.created`, … */
    kind: text("kind").notNull(),
    /** `info`, `warning` or `error`. */
    severity: text("severity").notNull(),
    /** `node`, `model`, `replica`, `key` or `release`. */
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    params: jsonb("params").$type<Record<string, string | number | boolean | null>>().notNull(),
    /** Warnings and errors need an operator's look until acknowledged; info rows start acknowledged. */
    isAcknowledged: boolean("is_acknowledged").notNull().default(false),
  },
  (table) => [
    index("events_at_idx").on(table.at),
    index("events_subject_idx").on(table.subjectType, table.subjectId),
    index("events_attention_idx").on(table.isAcknowledged, table.severity),
  ],
);

export type EventRow = typeof events.$inferSelect;
export type NewEvent = typeof events.$inferInsert;
