// Guard policies: which callers each covers, which texts it reads (prompt, answer, a tool's
// arguments and its answer), what it looks for, the judge model it asks and what happens when
// that judge is slow or down. The texts themselves are never stored.
import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

export const guardPolicies = pgTable("guard_policies", {
  name: text("name").primaryKey(),
  /** `*`, owners (`team:ml`) or keys (`key:<id>`). */
  appliesTo: text("applies_to").array().notNull(),
  stages: text("stages").array().notNull(),
  checks: text("checks").array().notNull(),
  judgeModel: text("judge_model"),
  /** `closed` refuses when the judge cannot answer in time; `open` lets the text through. */
  fail: text("fail").notNull(),
  budgetMs: integer("budget_ms").notNull(),
  createdBy: text("created_by").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type GuardPolicyRow = typeof guardPolicies.$inferSelect;
