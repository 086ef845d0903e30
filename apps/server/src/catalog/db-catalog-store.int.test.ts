// The catalog store on a real PGlite store: writes land with their audit rows, the in-memory
// catalog swaps only after the write, and a reopened store reads back what was written.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "@llmgw/api";
import { asc, auditLog, eq, models, openStore, type Store } from "@llmgw/db";
import { findPreset, type Catalog } from "@llmgw/domain";
import { tempDir } from "@llmgw/testing";
import type { CatalogStore } from "./catalog-store";
import { openCatalogStore } from "./db-catalog-store";

const alice = { username: "alice" };
const bob = { username: "bob" };
let dataDir: string;
let store: Store;
let catalog: CatalogStore;
const logLines: string[] = [];
let clockMs = Date.parse("2030-01-01T00:00:00Z");
const deps = {
  log: (line: string) => logLines.push(line),
  nowMs: () => clockMs,
  masterKey: randomBytes(32),
  keyFileDir: "/etc/llmgw",
};

const chat = (overrides: Record<string, unknown> = {}) => ({
  name: "chat",
  source: "file:///models/chat",
  profiles: [{ name: "cpu", engine: "llamacpp", memory_gb: 2 }],
  ...overrides,
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
  dataDir = (await tempDir("catalog-store")).path;
  store = await openStore({ kind: "pglite", dataDir });
  catalog = await openCatalogStore(store.db, deps);
});
afterAll(async () => store.close());

describe("catalog store", () => {
  it("adds a model at revision 1, audits it with the actor, and tells subscribers before and after", async () => {
    const seen: Array<{ next: Catalog; previous: Catalog }> = [];
    const unsubscribe = catalog.subscribe((next, previous) => seen.push({ next, previous }));
    const model = await catalog.add(chat(), alice);
    unsubscribe();

    expect(model.profiles[0]?.engine).toBe("llamacpp");
    expect(catalog.current().get("chat")?.source).toBe("file:///models/chat");
    expect(catalog.meta("chat")).toMatchObject({ revision: 1, fallbacks: [], updatedBy: "alice" });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.previous.get("chat")).toBeUndefined();
    expect(seen[0]?.next.get("chat")?.name).toBe("chat");

    const audit = await store.db.select().from(auditLog).where(eq(auditLog.target, "chat"));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: "alice", action: "model.add" });
    expect((audit[0]?.details as { definition: { source: string } }).definition.source).toBe(
      "file:///models/chat",
    );
  });

  it("keeps the revision when the same definition is added again, and bumps it on a change", async () => {
    const before = catalog.current();
    await catalog.add(chat(), bob);
    expect(catalog.current()).toBe(before);
    expect(catalog.meta("chat")?.revision).toBe(1);

    clockMs += 60_000;
    await catalog.add(chat({ replicas: { min: 1, max: 3 } }), bob);
    expect(catalog.meta("chat")).toMatchObject({
      revision: 2,
      updatedBy: "bob",
      updatedAt: new Date(clockMs),
    });
    expect(catalog.current().get("chat")?.replicas.max).toBe(3);
    const [row] = await store.db.select().from(models).where(eq(models.name, "chat"));
    expect(row?.revision).toBe(2);
    const actions = await store.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, "chat"))
      .orderBy(asc(auditLog.id));
    expect(actions.map((a) => `${a.actor}:${a.action}`)).toEqual([
      "alice:model.add",
      "bob:model.change",
    ]);
  });

  it("refuses an invalid definition with every problem listed and changes nothing", async () => {
    const before = catalog.current();
    const auditBefore = (await store.db.select().from(auditLog)).length;
    const error = await refusal(
      catalog.add(
        chat({
          source: "https://example.com/weights.bin",
          profiles: [{ name: "gpu", engine: "vllm", args: ["--download-dir", "/tmp"] }],
        }),
        alice,
      ),
    );
    expect(error.kind).toBe("invalid");
    expect(error.message).toMatch(/^model "chat" was refused: /);
    expect(error.details.length).toBeGreaterThanOrEqual(3);
    expect(error.details.join("\n")).toMatch(/pickle/);
    expect(error.details.join("\n")).toMatch(/needs a GPU/);
    expect(error.details.join("\n")).toMatch(/download-dir/);
    expect(catalog.current()).toBe(before);
    expect(catalog.meta("chat")?.revision).toBe(2);
    expect(await store.db.select().from(auditLog)).toHaveLength(auditBefore);

    const nameless = await refusal(catalog.add({ source: "x" }, alice));
    expect(nameless.message).toMatch(/^the model definition was refused: /);
  });

  it("refuses an external model at a barred address unless private upstreams are allowed", async () => {
    const external = (url: string) => ({
      name: "ext",
      external: { url, model: "gpt-4o-mini", api_key_file: "/etc/llmgw/openai.key" },
    });
    const auditBefore = (await store.db.select().from(auditLog)).length;
    const metadata = await refusal(catalog.add(external("http://169.254.169.254/v1"), alice));
    expect(metadata.kind).toBe("invalid");
    expect(metadata.details[0]).toMatch(/^external\.url: /);
    const lan = await refusal(catalog.add(external("http://10.0.0.7:8000/v1"), alice));
    expect(lan.details[0]).toMatch(/LLMGW_ALLOW_PRIVATE_UPSTREAMS/);
    expect(catalog.current().get("ext")).toBeUndefined();
    expect(await store.db.select().from(auditLog)).toHaveLength(auditBefore);

    // With private upstreams allowed the LAN address is stored; the metadata address never is.
    // (A store of its own, so the shared one's revisions and audit rows stay as the others expect.)
    const own = await openStore({ kind: "pglite", dataDir: (await tempDir("catalog-open")).path });
    try {
      const open = await openCatalogStore(own.db, { ...deps, allowPrivateUpstreams: true });
      expect((await open.add(external("http://10.0.0.7:8000/v1"), alice)).name).toBe("ext");
      const still = await refusal(open.add(external("http://169.254.169.254/v1"), alice));
      expect(still.details[0]).not.toMatch(/LLMGW_ALLOW_PRIVATE_UPSTREAMS/);
    } finally {
      await own.close();
    }
  });

  it("sets fallbacks to known models only, and audits them", async () => {
    await catalog.add({ ...findPreset("sim-chat"), name: "spare" }, alice);
    const itself = await refusal(catalog.setFallbacks("chat", ["chat"], alice));
    expect(itself.details).toEqual(['"chat" cannot be its own fallback']);
    const unknown = await refusal(catalog.setFallbacks("chat", ["spare", "ghost"], alice));
    expect(unknown.kind).toBe("invalid");
    expect(unknown.details).toEqual([
      expect.stringMatching(/fallback "ghost" is not in the catalog/),
    ]);
    expect(catalog.meta("chat")?.fallbacks).toEqual([]);
    const missing = await refusal(catalog.setFallbacks("ghost", ["chat"], alice));
    expect(missing.kind).toBe("not_found");

    const revisionBefore = catalog.current().revision;
    await catalog.setFallbacks("chat", ["spare", "spare"], bob);
    expect(catalog.meta("chat")?.fallbacks).toEqual(["spare"]);
    expect(catalog.current().revision).toBe(revisionBefore + 1);
    const [audit] = await store.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "model.fallbacks"));
    expect(audit).toMatchObject({
      actor: "bob",
      target: "chat",
      details: { fallbacks: ["spare"], previous: [] },
    });
  });

  it("removes a model, takes it out of other models' fallbacks, and refuses an unknown one", async () => {
    const seen: string[][] = [];
    const unsubscribe = catalog.subscribe((next, previous) =>
      seen.push([
        previous.models.map((m) => m.name).join(","),
        next.models.map((m) => m.name).join(","),
      ]),
    );
    await catalog.remove("spare", alice);
    unsubscribe();
    expect(seen).toEqual([["chat,spare", "chat"]]);
    expect(catalog.current().get("spare")).toBeUndefined();
    expect(catalog.meta("spare")).toBeUndefined();
    expect(catalog.meta("chat")?.fallbacks).toEqual([]);
    expect(await store.db.select().from(models).where(eq(models.name, "spare"))).toHaveLength(0);
    const [audit] = await store.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "model.remove"));
    expect(audit).toMatchObject({
      actor: "alice",
      target: "spare",
      details: { fallbacksUpdated: ["chat"] },
    });

    const error = await refusal(catalog.remove("spare", alice));
    expect(error.kind).toBe("not_found");
    expect(error.message).toMatch(/model "spare" is not in the catalog/);
  });

  it("sets and clears a model's owner without a new revision, audited, and tells subscribers", async () => {
    const seen: Array<string | undefined> = [];
    const unsubscribe = catalog.subscribe((next) => seen.push(next.get("chat")?.owner?.team));
    await catalog.setOwner("chat", { kind: "project", name: "search" }, bob);
    expect(catalog.current().get("chat")?.owner).toEqual({ project: "search" });
    await catalog.setOwner("chat", null, bob);
    expect(catalog.current().get("chat")?.owner).toBeUndefined();
    await catalog.setOwner("chat", { kind: "team", name: "ml" }, alice);
    unsubscribe();

    expect(seen).toEqual([undefined, undefined, "ml"]);
    expect(catalog.current().get("chat")?.owner).toEqual({ team: "ml" });
    // Ownership says who pays, not how the model runs: the replicas keep their revision.
    expect(catalog.meta("chat")).toMatchObject({ revision: 2, updatedBy: "alice" });
    const [row] = await store.db.select().from(models).where(eq(models.name, "chat"));
    expect(row).toMatchObject({ revision: 2, definition: { owner: { team: "ml" } } });
    const audit = await store.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "model.owner"))
      .orderBy(asc(auditLog.id));
    expect(audit.map((entry) => [entry.actor, entry.details])).toEqual([
      ["bob", { owner: "project:search", previous: null }],
      ["bob", { owner: null, previous: { project: "search" } }],
      ["alice", { owner: "team:ml", previous: null }],
    ]);
    const missing = await refusal(catalog.setOwner("ghost", { kind: "team", name: "ml" }, alice));
    expect(missing.kind).toBe("not_found");
  });

  it("leaves the catalog unchanged when the write fails", async () => {
    const before = catalog.current();
    const broken = await openCatalogStore(store.db, deps);
    await store.db.execute("ALTER TABLE audit_log RENAME TO audit_log_away");
    try {
      await expect(broken.add(chat({ name: "other" }), alice)).rejects.toThrow();
      expect(broken.current().get("other")).toBeUndefined();
      await expect(broken.remove("chat", alice)).rejects.toThrow();
      expect(broken.current().get("chat")).toBeDefined();
    } finally {
      await store.db.execute("ALTER TABLE audit_log_away RENAME TO audit_log");
    }
    expect(await store.db.select().from(models).where(eq(models.name, "other"))).toHaveLength(0);
    expect(catalog.current()).toBe(before);
  });

  it("reads back every model after a reopen, leaving out and logging a row that no longer validates", async () => {
    await store.db
      .insert(models)
      .values({ name: "stale", definition: { name: "stale", source: "/m", profiles: [] } });
    await store.close();
    store = await openStore({ kind: "pglite", dataDir });
    const reopened = await openCatalogStore(store.db, deps);
    expect(reopened.current().models.map((m) => m.name)).toEqual(["chat"]);
    expect(reopened.current().get("chat")?.replicas.max).toBe(3);
    expect(reopened.current().get("chat")?.owner).toEqual({ team: "ml" });
    // Alice was the last to touch it: she gave it its owner.
    expect(reopened.meta("chat")).toMatchObject({ revision: 2, fallbacks: [], updatedBy: "alice" });
    expect(logLines.join("\n")).toMatch(
      /model "stale" in the store no longer validates and is left out: profiles: give at least one profile/,
    );
  });
});
