// Desired state: the catalog as operators declared it. One row per model; the definition is the
// validated JSON (the zod schema in @llmgw/domain is the only judge of its shape).
import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const models = pgTable("models", {
  name: text("name").primaryKey(),
  definition: jsonb("definition").$type<Record<string, unknown>>().notNull(),
  /** Bumped on every change, so observed state can tell which definition it was made for. */
  revision: integer("revision").notNull().default(1),
  /** Where requests go when the cluster has no room for this model (model names). */
  fallbacks: jsonb("fallbacks").$type<string[]>().notNull().default([]),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text("updated_by").notNull().default("system"),
  /**
   * An external model's provider key, sealed under the master key (the model's name bound in), so
   * no key file is needed; null when none is set. Never leaves the server.
   */
  externalKeySealed: text("external_key_sealed"),
});

export type ModelRow = typeof models.$inferSelect;
