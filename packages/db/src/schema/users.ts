// People who sign in to the console and the CLI: local accounts (scrypt password hashes only), and
// people who come from Entra ID, Active Directory or SCIM, found again by their `subject`.
import { boolean, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const USER_SOURCES = ["local", "entra", "ldap", "scim"] as const;

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  username: text("username").notNull().unique(),
  displayName: text("display_name").notNull().default(""),
  email: text("email"),
  passwordHash: text("password_hash"),
  /** The role granted to the person directly, cluster-wide; groups may add more. */
  role: text("role", { enum: ["admin", "operator", "viewer"] }),
  source: text("source", { enum: USER_SOURCES }).notNull().default("local"),
  /** Who the directory says this is: `entra:TID:OID`, `ldap:DN`; unique when present. */
  subject: text("subject").unique(),
  /** SCIM's externalId, as the provisioning client sent it. */
  externalId: text("external_id"),
  isActive: boolean("is_active").notNull().default(true),
  /** The console language the person chose (`en`, `tr`); null until they choose. */
  locale: text("locale"),
  /** The org, team or project the person belongs to (`team:ml`), for ownership chains. */
  homeOwner: text("home_owner"),
  lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
  createdAt: createdAt(),
});

export type UserRow = typeof users.$inferSelect;
