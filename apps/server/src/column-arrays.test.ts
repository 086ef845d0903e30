// What an array statement builds before any store is reached; the statements themselves run
// against PGlite and PostgreSQL in reconcile/replica-book.int.test.ts.
import { describe, expect, it } from "vitest";
import { arrayLiteral, arrayStatement, insertRows, unnestRows } from "./column-arrays";

const COLUMNS = [
  ["id", "text"],
  ["rank", "integer"],
  ["cards", "jsonb"],
] as const;

describe("column-arrays", () => {
  it("names the columns and types each parameter as an array of its column's type", () => {
    // JSON values travel as text and are cast one by one (a jsonb[] was 20 × slower to read).
    expect(insertRows("t", COLUMNS)).toBe(
      "INSERT INTO t (id, rank, cards) SELECT id, rank, cards::jsonb FROM " +
        "unnest($1::text::text[], $2::text::integer[], $3::text::text[]) AS r(id, rank, cards)",
    );
  });

  it("quotes text so the literal's own syntax stays text, and writes null and integers bare", () => {
    expect(arrayLiteral([])).toBe("{}");
    expect(arrayLiteral(['a "b"', "c\\d", "e,f", "NULL", null, 7])).toBe(
      '{"a \\"b\\"","c\\\\d","e,f","NULL",NULL,7}',
    );
    expect(() => arrayLiteral([1.5])).toThrow(/integers/);
  });

  it("refuses a statement whose parameters are not $1 to $n, each once and in order", () => {
    expect(() => arrayStatement("SELECT $1", 2)).toThrow(/\$1 to \$2/);
    expect(() => arrayStatement("SELECT $2, $1", 2)).toThrow(/in order/);
    expect(() => arrayStatement("SELECT $1, $1", 2)).toThrow(/each once/);
    const statement = arrayStatement(`SELECT * FROM ${unnestRows(COLUMNS)}`, 3);
    expect(() => statement([["a"]])).toThrow(/takes 3 columns, not 1/);
  });
});
