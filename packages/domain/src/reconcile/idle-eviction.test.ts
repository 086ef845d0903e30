import { describe, expect, it } from "vitest";
import { parseModelDefinition } from "../catalog/model-definition";
import { cards } from "../placement/test-fixtures";
import { planReconcile } from "./plan";
import { input, liveNode, model, replica } from "./test-fixtures";
import type { DesiredModel, ObservedReplica, ReconcileAction } from "./types";

const NOW_MS = 10_000_000;
const node = liveNode("n1", { cards: cards(1) });

const urgent = (overrides: Parameters<typeof model>[0] = {}): DesiredModel =>
  model({ name: "urgent", priority_class: "critical", ...overrides });
const idler = (overrides: Parameters<typeof model>[0] = {}): DesiredModel => ({
  ...model({ name: "idler", priority_class: "low", on_demand: true, ...overrides }),
  demandedAtMs: NOW_MS - 60_000,
});
const idle = (overrides: Partial<ObservedReplica> = {}): ObservedReplica =>
  replica("i1", {
    model: "idler",
    createdAtMs: NOW_MS - 3_600_000,
    lastUsedAtMs: NOW_MS - 600_000,
    inFlight: 0,
    ...overrides,
  });

const stopsOf = (actions: ReconcileAction[]) =>
  actions.flatMap((a) => (a.kind === "stop" ? [`${a.replicaId}: ${a.reason}`] : []));

function plan(models: DesiredModel[], replicas: ObservedReplica[], extra = {}) {
  return planReconcile(input({ models, nodes: [node], replicas, nowMs: NOW_MS, ...extra })).actions;
}

describe("idle eviction", () => {
  it("evicts an idle on-demand replica for a higher class, naming the model that needed it", () => {
    expect(stopsOf(plan([urgent(), idler()], [idle()]))).toEqual([
      "i1: idle; evicted to make room for model urgent (priority critical)",
    ]);
  });

  it.each([
    ["serving", { inFlight: 1 }],
    ["of unknown idleness", { lastUsedAtMs: null }],
    ["of unknown idleness (absent)", { lastUsedAtMs: undefined }],
    ["younger than its min lifetime", { createdAtMs: NOW_MS - 200_000 }],
    ["idle for less than evictAfterIdleMs", { lastUsedAtMs: NOW_MS - 60_000 }],
    ["still starting", { phase: "starting" as const }],
  ])("never evicts a replica %s", (_, overrides) => {
    const actions = plan([urgent(), idler()], [idle(overrides)]);
    expect(stopsOf(actions)).toEqual([]);
    expect(actions.find((a) => a.kind === "unplaceable")?.model).toBe("urgent");
  });

  it("honours the model's min_lifetime_ms and the policy's evictAfterIdleMs", () => {
    const young = [idle({ createdAtMs: NOW_MS - 700_000 })];
    expect(stopsOf(plan([urgent(), idler({ min_lifetime_ms: 800_000 })], young))).toEqual([]);
    expect(stopsOf(plan([urgent(), idler({ min_lifetime_ms: 600_000 })], young))).toHaveLength(1);
    const policy = { lostAfterMs: 10_000, failuresToPark: 5, evictAfterIdleMs: 900_000 };
    expect(stopsOf(plan([urgent(), idler()], [idle()], { policy }))).toEqual([]);
  });

  it("evicts for the same class only between two on-demand models", () => {
    const sameClass = { priority_class: "low" as const };
    expect(stopsOf(plan([urgent(sameClass), idler()], [idle()]))).toEqual([]);
    const onDemand = { ...urgent({ ...sameClass, on_demand: true }), demandedAtMs: NOW_MS };
    expect(stopsOf(plan([onDemand, idler()], [idle()]))).toHaveLength(1);
  });

  it("never evicts for a lower class", () => {
    const lower = [urgent({ priority_class: "low" }), idler({ priority_class: "high" })];
    expect(stopsOf(plan(lower, [idle()]))).toEqual([]);
  });

  it("evicts a borrowed always-on replica, but not one of a model without an owner", () => {
    const alwaysOn = idler({ on_demand: false });
    expect(stopsOf(plan([urgent(), alwaysOn], [idle()]))).toEqual([]);
    const owned = { ...alwaysOn, ownerChain: ["team:b"] };
    expect(stopsOf(plan([urgent(), owned], [idle()]))).toHaveLength(1);
  });

  it("never evicts a replica within its owner's guarantee", () => {
    const owned = { ...idler(), ownerChain: ["team:b"] };
    const quotas = [{ scope: "team:b", guarantee: { gpus: { "H100-80G": 1 } }, limit: null }];
    expect(stopsOf(plan([urgent(), owned], [idle()], { quotas }))).toEqual([]);
  });
});

describe("min_lifetime_ms", () => {
  const base = { name: "m", source: "org/m", profiles: [{ name: "p", engine: "sim" as const }] };

  it("defaults to five minutes", () => {
    const parsed = parseModelDefinition(base);
    expect(parsed.ok && parsed.model.min_lifetime_ms).toBe(300_000);
  });

  it("refuses a negative or fractional lifetime, naming the field", () => {
    for (const min_lifetime_ms of [-1, 1.5]) {
      const parsed = parseModelDefinition({ ...base, min_lifetime_ms });
      expect(parsed.ok ? "" : parsed.errors.join("; ")).toMatch(/min_lifetime_ms/);
    }
  });
});
