// Quotas per scope of the ownership tree (`team:ml`): what it is guaranteed and, optionally, the
// most it may hold. The shapes are @llmgw/domain's QuotaAmounts; the domain's quota parser is the
// only judge of them. A scope without a row has no guarantee and no limit.
import type { QuotaAmounts } from "@llmgw/domain";
import { jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { updatedAt } from "./columns";

export const quotas = pgTable("quotas", {
  /** Owner string of an org, team or project. */
  scope: text("scope").primaryKey(),
  guarantee: jsonb("guarantee").$type<QuotaAmounts>().notNull(),
  /** null: not limited. */
  limit: jsonb("limit").$type<QuotaAmounts>(),
  updatedAt: updatedAt(),
  updatedBy: text("updated_by").notNull().default("system"),
});

export type QuotaRow = typeof quotas.$inferSelect;
