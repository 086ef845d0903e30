// The statements themselves run against PGlite and PostgreSQL in usage-insert.int.test.ts and
// inventory.int.test.ts; here, what is built before any store is reached.
import { describe, expect, it } from "vitest";
import { fields, jsonStatement, names, recordset } from "./json-recordset";

const COLUMNS = [
  ["keyId", "key_id", "text"],
  ["at", "at", "timestamptz"],
] as const;

describe("json-recordset", () => {
  it("names the columns, selects the fields and types the record set in column order", () => {
    expect(names(COLUMNS)).toBe("key_id, at");
    expect(fields(COLUMNS)).toBe('"keyId", "at"');
    expect(recordset(COLUMNS)).toBe(
      'json_to_recordset($1::text::json) AS r("keyId" text, "at" timestamptz)',
    );
  });

  it("refuses a statement without exactly one $1", () => {
    expect(() => jsonStatement("DELETE FROM t")).toThrow(/exactly one \$1/);
    expect(() => jsonStatement("SELECT $1, $1")).toThrow(/exactly one \$1/);
    expect(() => jsonStatement(`SELECT * FROM ${recordset(COLUMNS)}`)).not.toThrow();
  });
});
