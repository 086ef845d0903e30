// MCP servers the gateway reaches over streamable HTTP. Header values marked sealed (a bearer
// token, an API key header) are kept only as ciphertext under the master key; the others are
// plain. `llmgw:admin` is answered in the server's own process and holds no credential.
import { integer, jsonb, pgTable, text, boolean } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

/** One header sent to the upstream on every request. */
export interface McpHeaderRow {
  name: string;
  /** The value as written (plain headers) or `v1:…` ciphertext bound to the server and header. */
  value: string;
  isSealed: boolean;
}

export const mcpServers = pgTable("mcp_servers", {
  name: text("name").primaryKey(),
  url: text("url").notNull(),
  description: text("description"),
  /** How long one upstream call may take; null means the gateway's default. */
  timeoutMs: integer("timeout_ms"),
  /** Calls a minute each caller may make to this server; null means no limit. */
  callsPerMinute: integer("calls_per_minute"),
  headers: jsonb("headers").$type<McpHeaderRow[]>().notNull().default([]),
  isEnabled: boolean("is_enabled").notNull().default(true),
  createdBy: text("created_by").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type McpServerRow = typeof mcpServers.$inferSelect;
