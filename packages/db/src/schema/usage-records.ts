// One row per /v1 request, written in batches off the request path.
import { bigserial, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const usageRecords = pgTable(
  "usage_records",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    keyId: text("key_id").notNull(),
    owner: text("owner").notNull(),
    model: text("model").notNull(),
    /** `/v1/chat/completions` and the like. */
    endpoint: text("endpoint").notNull(),
    /** The replica that answered, or null when none was reached. */
    replicaId: text("replica_id"),
    requestId: text("request_id").notNull(),
    promptTokens: integer("prompt_tokens").notNull(),
    completionTokens: integer("completion_tokens").notNull(),
    latencyMs: integer("latency_ms").notNull(),
    /** Time to the first byte of the answer; null when nothing was sent. */
    ttftMs: integer("ttft_ms"),
    status: integer("status").notNull(),
    /**
     * The error code the client was given, when the request failed: a refusal's code, or the code
     * of the error event that ended a stream begun with 200 (`upstream_interrupted`, a guard's).
     */
    errorCode: text("error_code"),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("usage_records_at_idx").on(table.at),
    index("usage_records_owner_at_idx").on(table.owner, table.at),
  ],
);

export type UsageRecordRow = typeof usageRecords.$inferSelect;
export type NewUsageRecord = typeof usageRecords.$inferInsert;
