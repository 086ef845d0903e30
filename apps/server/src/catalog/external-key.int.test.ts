// An external model's key in the catalog store, on a real PGlite store: key files only from the
// configured directory (refused before anything is written), and the sealed key: stored sealed,
// audited without the key, kept across a definition change and a reopen, gone with the model.
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "@llmgw/api";
import { auditLog, eq, models, openStore, type Store } from "@llmgw/db";
import { tempDir } from "@llmgw/testing";
import type { CatalogStore } from "./catalog-store";
import { openCatalogStore, type CatalogStoreDeps } from "./db-catalog-store";

const alice = { username: "alice" };
const PROVIDER_KEY = "sk-sealed-provider-key-0123456789";
let home: string;
let keyDir: string;
let store: Store;
let deps: CatalogStoreDeps;
let catalog: CatalogStore;

const external = (name: string, fields: Record<string, unknown> = {}) => ({
  name,
  external: { url: "https://api.example.com/v1", model: "gpt-4o-mini", ...fields },
});

async function refusal(work: Promise<unknown>): Promise<ServiceError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

beforeAll(async () => {
  home = (await tempDir("catalog-keys")).path;
  keyDir = join(home, "keys");
  await mkdir(keyDir);
  await writeFile(join(home, "master.key"), randomBytes(32).toString("base64"), { mode: 0o600 });
  store = await openStore({ kind: "pglite", dataDir: join(home, "data") });
  deps = {
    log: () => undefined,
    nowMs: () => Date.now(),
    masterKey: randomBytes(32),
    keyFileDir: keyDir,
  };
  catalog = await openCatalogStore(store.db, deps);
});
afterAll(async () => store.close());

describe("external model keys in the catalog store", () => {
  it("refuses a key file outside LLMGW_KEY_FILE_DIR before anything is stored, the same whether it exists or not", async () => {
    const auditBefore = (await store.db.select().from(auditLog)).length;
    const master = await refusal(
      catalog.add(external("steal", { api_key_file: join(home, "master.key") }), alice),
    );
    const missing = await refusal(
      catalog.add(external("steal", { api_key_file: join(home, "missing.key") }), alice),
    );
    expect(master.kind).toBe("invalid");
    expect(master.details[0]).toMatch(
      /^external\.api_key_file: ".*master\.key" is not a file inside the key file directory .* \(LLMGW_KEY_FILE_DIR\)/,
    );
    expect(master.details[0]?.replace("master.key", "X")).toBe(
      missing.details[0]?.replace("missing.key", "X"),
    );
    const listed = await refusal(
      catalog.add(
        external("steal", {
          api_key_files: [{ file: join(keyDir, "ok.key") }, { file: `${keyDir}/../master.key` }],
        }),
        alice,
      ),
    );
    expect(listed.details).toEqual([expect.stringMatching(/^external\.api_key_files\[1\]: /)]);
    expect(catalog.current().get("steal")).toBeUndefined();
    expect(await store.db.select().from(auditLog)).toHaveLength(auditBefore);
  });

  it("refuses every key file when no directory is configured, naming the setting", async () => {
    const own = await openStore({ kind: "pglite", dataDir: (await tempDir("catalog-nodir")).path });
    try {
      const off = await openCatalogStore(own.db, { ...deps, keyFileDir: null });
      const error = await refusal(
        off.add(external("k", { api_key_file: join(keyDir, "ok.key") }), alice),
      );
      expect(error.details[0]).toMatch(/key files are off on this server.*LLMGW_KEY_FILE_DIR/);
      expect((await off.add(external("sealed-only"), alice)).name).toBe("sealed-only");
    } finally {
      await own.close();
    }
  });

  it("keeps a key sealed: never in the row or the audit in plain text, opened for the gateway", async () => {
    await catalog.add(external("ext"), alice);
    expect(catalog.externalKey("ext")).toBeNull();
    await catalog.setExternalKey("ext", `  ${PROVIDER_KEY}\n`, alice);
    expect(catalog.externalKey("ext")).toBe(PROVIDER_KEY);
    expect(catalog.meta("ext")?.externalKeySealed).toMatch(/^v1:/);
    const [row] = await store.db.select().from(models).where(eq(models.name, "ext"));
    expect(JSON.stringify(row)).not.toContain(PROVIDER_KEY);
    const audit = await store.db.select().from(auditLog).where(eq(auditLog.action, "model.key"));
    expect(audit.map((a) => a.details)).toEqual([{ isSet: true }]);
    expect(JSON.stringify(audit)).not.toContain(PROVIDER_KEY);
  });

  it("keeps the key across a definition change and a reopen, and only under the model's own name", async () => {
    await catalog.add(external("ext", { model: "gpt-4o" }), alice);
    expect(catalog.externalKey("ext")).toBe(PROVIDER_KEY);
    const reopened = await openCatalogStore(store.db, deps);
    expect(reopened.externalKey("ext")).toBe(PROVIDER_KEY);
    // A sealed key copied onto another model's row does not open there.
    await reopened.add(external("other"), alice);
    const [row] = await store.db.select().from(models).where(eq(models.name, "ext"));
    await store.db
      .update(models)
      .set({ externalKeySealed: row?.externalKeySealed ?? null })
      .where(eq(models.name, "other"));
    expect((await openCatalogStore(store.db, deps)).externalKey("other")).toBeNull();
  });

  it("refuses a key for a fleet model, an unknown model and an empty key; clears one", async () => {
    await catalog.add(
      {
        name: "chat",
        source: "file:///m",
        profiles: [{ name: "cpu", engine: "llamacpp", memory_gb: 1 }],
      },
      alice,
    );
    expect((await refusal(catalog.setExternalKey("chat", PROVIDER_KEY, alice))).message).toMatch(
      /only external models take a provider key/,
    );
    expect((await refusal(catalog.setExternalKey("nope", PROVIDER_KEY, alice))).kind).toBe(
      "not_found",
    );
    expect((await refusal(catalog.setExternalKey("ext", " \n", alice))).message).toMatch(/empty/);
    await catalog.setExternalKey("ext", null, alice);
    expect(catalog.externalKey("ext")).toBeNull();
    expect(catalog.meta("ext")?.externalKeySealed).toBeNull();
  });
});
