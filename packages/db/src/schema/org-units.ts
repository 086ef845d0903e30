// The ownership tree: orgs hold teams, teams hold projects. Names are unique per kind, because
// owners travel as `team:ml`.
import { pgTable, text, unique } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const orgUnits = pgTable(
  "org_units",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["org", "team", "project"] }).notNull(),
    name: text("name").notNull(),
    /** The owner string of the parent (`org:acme`); null for an org. */
    parent: text("parent"),
    createdAt: createdAt(),
  },
  (table) => [unique("org_units_kind_name").on(table.kind, table.name)],
);

export type OrgUnitRow = typeof orgUnits.$inferSelect;
