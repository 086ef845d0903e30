import { existsSync } from "node:fs";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { startPostgres } from "./postgres-server.ts";

describe("startPostgres", () => {
  it("starts a real PostgreSQL 15 that answers queries, and removes it on stop", async () => {
    const server = await startPostgres();
    try {
      expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/llmgw`);
      expect(existsSync(server.dataDir)).toBe(true);
      const sql = postgres(server.url, { max: 1 });
      try {
        const [row] = await sql<{ one: number; db: string; version: string }[]>`
          select 1 as one, current_database() as db, current_setting('server_version_num') as version`;
        expect(row).toEqual({ one: 1, db: "llmgw", version: expect.stringMatching(/^15\d{4}$/) });
      } finally {
        await sql.end();
      }
    } finally {
      await server.stop();
    }
    expect(existsSync(server.dataDir)).toBe(false);
    await expect(postgres(server.url, { max: 1, connect_timeout: 2 })`select 1`).rejects.toThrow();
  });

  it("restarts on the same port and data directory, keeping what was written", async () => {
    const server = await startPostgres();
    const sql = postgres(server.url, { max: 1, onnotice: () => {} });
    try {
      await sql`create table kept (n int)`;
      await sql`insert into kept values (7)`;
      const { downAtMs, upAtMs } = await server.restart(500);
      expect(upAtMs - downAtMs).toBeGreaterThanOrEqual(500);
      // The same client reconnects by itself: same port, same data.
      const [row] = await sql<{ n: number }[]>`select n from kept`;
      expect(row).toEqual({ n: 7 });
    } finally {
      await sql.end();
      await server.stop();
    }
  });

  it("names the package to install when the binaries are missing", async () => {
    await expect(startPostgres({ binDir: "/nonexistent/bin" })).rejects.toThrow(
      /initdb, pg_ctl, postgres not found in \/nonexistent\/bin; install the Debian package postgresql-15/,
    );
  });
});
