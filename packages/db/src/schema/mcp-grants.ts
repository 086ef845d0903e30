// Which MCP tools a level may use: an org, team, project, person (`user:`) or key (`key:<id>`),
// per server. A row names that level's own list of tool patterns; an empty list is a closed
// level. A level without a row inherits from the levels above it.
import { pgTable, primaryKey, text, index } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { mcpServers } from "./mcp-servers";

export const mcpGrants = pgTable(
  "mcp_grants",
  {
    subject: text("subject").notNull(),
    server: text("server")
      .notNull()
      .references(() => mcpServers.name, { onDelete: "cascade" }),
    /** Tool names or `*` patterns; `[]` closes the level. */
    tools: text("tools").array().notNull(),
    grantedBy: text("granted_by").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.subject, table.server] }),
    index("mcp_grants_server_idx").on(table.server),
  ],
);

export type McpGrantRow = typeof mcpGrants.$inferSelect;
