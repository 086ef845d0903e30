// Groups of people: made by hand, pushed by SCIM, or standing for a directory group (an Entra group
// object id or an AD group DN in `externalId`) so that membership found at sign-in maps to roles.
import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { users } from "./users";

export const groups = pgTable("groups", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  source: text("source", { enum: ["local", "entra", "ldap", "scim"] })
    .notNull()
    .default("local"),
  /** Entra group object id, AD group DN, or SCIM externalId; unique when present. */
  externalId: text("external_id").unique(),
  createdAt: createdAt(),
});

export const groupMembers = pgTable(
  "group_members",
  {
    groupId: text("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.userId] }),
    index("group_members_user_idx").on(table.userId),
  ],
);

export type GroupRow = typeof groups.$inferSelect;
