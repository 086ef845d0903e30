// Roles given to a person or a group, cluster-wide (`*`) or on one org, team or project.
import { index, pgTable, text, unique } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const roleBindings = pgTable(
  "role_bindings",
  {
    id: text("id").primaryKey(),
    subjectKind: text("subject_kind", { enum: ["user", "group"] }).notNull(),
    subjectId: text("subject_id").notNull(),
    role: text("role", { enum: ["admin", "operator", "viewer"] }).notNull(),
    /** `*` for the whole cluster, or an owner: `org:acme`, `team:ml`, `project:search`. */
    scope: text("scope").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    unique("role_bindings_unique").on(table.subjectKind, table.subjectId, table.role, table.scope),
    index("role_bindings_subject_idx").on(table.subjectKind, table.subjectId),
  ],
);

export type RoleBindingRow = typeof roleBindings.$inferSelect;
