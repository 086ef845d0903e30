// People who sign in to the console and the CLI. Passwords are kept only as scrypt hashes.
import { pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  username: text("username").notNull().unique(),
  passwordHash: text("password_hash"),
  role: text("role", { enum: ["admin", "operator", "viewer"] }).notNull(),
  createdAt: createdAt(),
});

export type UserRow = typeof users.$inferSelect;
