// The embedded store as openStore opens it: PostgreSQL's shared buffers cut to PGLITE_SHARED_BUFFERS
// on the command line (what keeps the server's RSS down), and the data directory's own
// postgresql.conf left as initdb wrote it, so its other settings (time zone, locale) still hold.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, PGLITE_SHARED_BUFFERS, sql } from "./index";

const dataDir = mkdtempSync(join(tmpdir(), "llmgw-db-client-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("openStore on PGlite", () => {
  it("runs with small shared buffers without rewriting postgresql.conf, on a new and a reopened directory", async () => {
    for (const round of ["new", "reopened"]) {
      const store = await openStore({ kind: "pglite", dataDir });
      try {
        const result = await store.db.execute(
          sql`select current_setting('shared_buffers') as buffers, current_setting('TimeZone') as zone`,
        );
        const rows = (
          Array.isArray(result) ? result : (result as { rows: unknown[] }).rows
        ) as Array<{
          buffers: string;
          zone: string;
        }>;
        expect(rows[0], round).toEqual({ buffers: PGLITE_SHARED_BUFFERS, zone: "UTC" });
      } finally {
        await store.close();
      }
      const conf = readFileSync(join(dataDir, "postgresql.conf"), "utf8");
      expect(conf, round).toMatch(/^shared_buffers = 128MB/m);
      expect(conf, round).toMatch(/^timezone = UTC/m);
    }
  });
});
