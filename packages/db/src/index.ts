// The store: Drizzle schema (one table per file), the client factory and its migrator.
export * from "./client";
export * from "./copy-store";
export { StoreInUseError } from "./pglite-lock";
export * from "./schema/index";
export {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  sql,
} from "drizzle-orm";
