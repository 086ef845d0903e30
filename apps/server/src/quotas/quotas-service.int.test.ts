// The quotas service on a real PGlite store: a quota is stored, audited and answered with its
// usage; every refusal names what was wrong and stores nothing; each change asks for a new pass.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "@llmgw/api";
import { auditLog, asc, inArray, openStore, quotas, type Store } from "@llmgw/db";
import { createCatalog, DEFAULT_LIVENESS } from "@llmgw/domain";
import { tempDir } from "@llmgw/testing";
import type { FleetView } from "../fleet/fleet-view";
import { FacilityOverlay } from "../fleet/facility-overlay";
import { SourceDescriptions } from "../fleet/source-descriptions";
import { GpuHistory } from "../fleet/gpu-history";
import { createOwnershipResolver } from "../identity/ownership";
import { createUnit } from "../identity/org-tree";
import { createQuotasService } from "./quotas-service";

const admin = { username: "root" };
let store: Store;
let service: ReturnType<typeof createQuotasService>;
let passesAsked = 0;

/** A fleet with nothing placed: the service's own work is under test here, not accounting. */
function emptyFleet(): FleetView {
  const built = createCatalog([], 1);
  if (!built.ok) throw new Error(`an empty catalog was refused: ${built.errors.join("; ")}`);
  return {
    catalog: {
      current: () => built.catalog,
      meta: () => undefined,
      externalKey: () => null,
    },
    book: {
      get: () => undefined,
      all: () => [],
      active: () => [],
      onNode: () => [],
      ofModel: () => [],
      watch: () => () => true,
    },
    health: { get: () => undefined, all: () => [] },
    registry: {
      get: () => undefined,
      all: () => [],
      history: new GpuHistory(),
      facility: new FacilityOverlay(),
      sources: new SourceDescriptions(),
      // No node is live here, so nothing is ever asked when it was heard.
      heard: (live) => live,
    },
    unplaceable: new Map(),
    liveness: DEFAULT_LIVENESS,
    startedAtMs: 0,
    demandedAtMs: () => null,
    autoscaleAdded: () => 0,
    nowMs: () => Date.parse("2030-01-01T00:00:00Z"),
  };
}

async function refusal(work: Promise<unknown>): Promise<ServiceError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

beforeAll(async () => {
  store = await openStore({ kind: "pglite", dataDir: (await tempDir("quotas-service")).path });
  await createUnit(store.db, { kind: "org", name: "acme" }, admin);
  await createUnit(store.db, { kind: "team", name: "ml", parent: "org:acme" }, admin);
  service = createQuotasService({
    db: store.db,
    fleet: emptyFleet(),
    ownership: createOwnershipResolver(store.db),
    quotasChanged: () => (passesAsked += 1),
    nowMs: () => Date.parse("2030-01-01T00:00:00Z"),
    log: () => undefined,
  });
});
afterAll(async () => store.close());

describe("quotas service", () => {
  it("stores a quota, answers it with its lines and text, audits it and asks for a pass", async () => {
    const view = await service.set(
      { scope: "team:ml", guarantee: "gpus=H100-80G:4,memory=64GiB", limit: "gpus=H100-80G:8" },
      admin,
    );
    expect(view.quota).toMatchObject({
      guaranteeText: "gpus=H100-80G:4,memory=64GiB",
      limitText: "gpus=H100-80G:8",
      updatedBy: "root",
    });
    expect(view.lines).toEqual([
      { resource: "gpus:H100-80G", held: 0, guaranteed: 4, limit: 8, borrowed: 0 },
      { resource: "memory", held: 0, guaranteed: 64, limit: null, borrowed: 0 },
    ]);
    expect(view.atLimit).toBe(false);
    expect(passesAsked).toBe(1);
    expect((await service.list()).map((entry) => entry.scope)).toEqual(["team:ml"]);
  });

  it("refuses an unknown scope, bad amounts and guarantees above a limit, storing nothing", async () => {
    const unknown = await refusal(
      service.set({ scope: "team:ghost", guarantee: "cores=1" }, admin),
    );
    expect(unknown.refusal).toEqual({
      code: "org.unit_not_found",
      params: { owner: "team:ghost" },
    });
    const person = await refusal(service.set({ scope: "user:root", guarantee: "" }, admin));
    expect(person.refusal.code).toBe("quota.scope_refused");
    const amounts = await refusal(
      service.set({ scope: "team:ml", guarantee: "gpus=H100-80G:four" }, admin),
    );
    expect(amounts.refusal).toMatchObject({
      code: "quota.amounts_refused",
      params: { field: "guarantee", part: "gpus=H100-80G:four" },
    });
    const own = await refusal(
      service.set({ scope: "team:ml", guarantee: "cores=64", limit: "cores=32" }, admin),
    );
    expect(own.refusal.code).toBe("quota.guarantee_above_limit");
    const parent = await refusal(
      service.set({ scope: "org:acme", guarantee: "", limit: "gpus=H100-80G:2" }, admin),
    );
    expect(parent.refusal.params).toMatchObject({ scope: "team:ml", parent: "org:acme", limit: 2 });
    expect(await store.db.select().from(quotas)).toHaveLength(1);
    expect(passesAsked).toBe(1);
  });

  it("removes a quota with an audit row, and says so when there is none", async () => {
    expect(await service.remove("team:ml", admin)).toEqual({ scope: "team:ml" });
    expect(await service.list()).toEqual([]);
    const missing = await refusal(service.remove("team:ml", admin));
    expect(missing.kind).toBe("not_found");
    expect(missing.refusal).toEqual({ code: "quota.not_found", params: { scope: "team:ml" } });
    const audit = await store.db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.action, ["quota.set", "quota.remove"]))
      .orderBy(asc(auditLog.id));
    expect(audit.map((row) => [row.action, row.actor, row.target])).toEqual([
      ["quota.set", "root", "team:ml"],
      ["quota.remove", "root", "team:ml"],
    ]);
    expect(passesAsked).toBe(2);
  });
});
