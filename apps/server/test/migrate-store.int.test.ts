// `llmgw server migrate-store` as an operator runs it: a control plane on PGlite with an admin, an
// API key and a sealed secret; refused while it runs; moved into a real PostgreSQL 15 once stopped;
// then the same home starts on PostgreSQL, the admin signs in, the key authenticates and the
// sealed secret opens under the same master key. A second PGlite store cannot be moved into it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "@llmgw/db";
import {
  ADMIN_PASSWORD,
  cleanupAll,
  freePort,
  spawnLlmgw,
  startPostgres,
  tempDir,
  waitFor,
} from "@llmgw/testing";
import { loadMasterKey } from "../src/seal/master-key";
import { readSecret, storeSecret } from "../src/seal/sealed-secrets";
import { apiClient, sessionToken } from "./harness";

afterAll(cleanupAll);

const NO_STORE_ENV = { LLMGW_HOME: undefined, DATABASE_URL: undefined };

async function llmgw(args: string[], env: Record<string, string | undefined> = {}) {
  const run = spawnLlmgw(args, {
    name: args.slice(0, 2).join(" "),
    env: { ...NO_STORE_ENV, ...env },
  });
  const { code } = await run.exited;
  return { code, output: run.output() };
}

async function serve(home: string, port: number) {
  const server = spawnLlmgw(["server", "--home", home], { name: "server", env: NO_STORE_ENV });
  const apiUrl = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${apiUrl}/healthz`)).ok, {
    what: "server /healthz",
    timeoutMs: 60_000,
  });
  return { server, apiUrl };
}

async function initHome(home: string, port: number) {
  const init = await llmgw(["server", "init", "--home", home, "--port", String(port)], {
    LLMGW_ADMIN_PASSWORD: ADMIN_PASSWORD,
  });
  expect(init.code, init.output).toBe(0);
}

const modelsWith = (apiUrl: string, key: string) =>
  fetch(`${apiUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } });

describe("llmgw server migrate-store", () => {
  it("moves a PGlite store into PostgreSQL: people, keys and sealed secrets included", async () => {
    const pg = await startPostgres({ database: "moved" });
    const home = join((await tempDir("migrate-store")).path, "home");
    const port = await freePort();
    await initHome(home, port);
    const before = await serve(home, port);
    const admin = apiClient(
      before.apiUrl,
      await sessionToken(before.apiUrl, "admin", ADMIN_PASSWORD),
    );
    const { key } = await admin.keys.create.mutate({ owner: "team:ml", models: ["*"] });
    expect((await modelsWith(before.apiUrl, key)).status).toBe(200);

    const whileRunning = await llmgw(["server", "migrate-store", "--home", home, "--to", pg.url]);
    expect(whileRunning.code, whileRunning.output).toBe(1);
    expect(whileRunning.output).toContain("stop it first");
    await before.server.stop();

    // A secret sealed under the home's master key (as an SSO client secret is).
    const masterKey = loadMasterKey({ kind: "file", path: join(home, "master.key") }).key;
    const pglite = await openStore({ kind: "pglite", dataDir: join(home, "data") });
    await storeSecret(pglite.db, masterKey, "sso.entra.client-secret", "the-client-secret");
    await pglite.close();

    // The target comes from DATABASE_URL in the environment: no password in the process list.
    const moved = await llmgw(["server", "migrate-store", "--home", home], {
      DATABASE_URL: pg.url,
    });
    expect(moved.code, moved.output).toBe(0);
    expect(moved.output).toMatch(/copied +\d+ rows in \d+ tables/);
    const settings = readFileSync(join(home, "server.env"), "utf8");
    expect(settings).toContain(`DATABASE_URL=${pg.url}`);
    expect(settings).toContain(`LLMGW_PORT=${port}`);
    expect(existsSync(join(home, "data"))).toBe(false);
    expect(existsSync(join(home, "data.moved-to-postgres"))).toBe(true);

    const postgres = await openStore({ kind: "postgres", url: pg.url });
    expect(await readSecret(postgres.db, masterKey, "sso.entra.client-secret")).toBe(
      "the-client-secret",
    );
    await postgres.close();

    const after = await serve(home, port);
    expect(after.server.output()).toContain("store postgres");
    await sessionToken(after.apiUrl, "admin", ADMIN_PASSWORD);
    expect((await modelsWith(after.apiUrl, key)).status).toBe(200);
    expect((await modelsWith(after.apiUrl, `${key}x`)).status).toBe(401);

    // Moving again finds nothing to move; another PGlite store is refused by the full target.
    const again = await llmgw(["server", "migrate-store", "--home", home, "--to", pg.url]);
    expect(again.code).toBe(1);
    expect(again.output).toContain("already sets DATABASE_URL");
    await after.server.stop();
    const other = join((await tempDir("migrate-store-other")).path, "home");
    await initHome(other, await freePort());
    const refused = await llmgw(["server", "migrate-store", "--home", other, "--to", pg.url]);
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toMatch(/already holds llmgw rows: .*users \(1\)/);
    expect(existsSync(join(other, "data"))).toBe(true);
    expect(readFileSync(join(other, "server.env"), "utf8")).not.toContain("DATABASE_URL");
    await pg.stop();
  }, 240_000); // three server starts and a copy: about a minute on a quiet 2-core machine

  it("says what is missing or wrong in its flags", async () => {
    const missing = await llmgw(["server", "migrate-store", "--home", "/tmp/none"]);
    expect(missing.code).toBe(2);
    expect(missing.output).toContain("--to postgres://… is missing");
    const wrong = await llmgw(["server", "migrate-store", "--home", "/tmp/x", "--to", "mysql://h"]);
    expect(wrong.code).toBe(2);
    expect(wrong.output).toContain("--to must be a postgres:// or postgresql:// URL");
  });
});
