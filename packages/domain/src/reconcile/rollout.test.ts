import { describe, expect, it } from "vitest";
import { cards } from "../placement/test-fixtures";
import { planReconcile } from "./plan";
import { input, liveNode, model, replica } from "./test-fixtures";
import type { ObservedReplica, ReconcileAction } from "./types";

const placed = (actions: ReconcileAction[]) => actions.filter((a) => a.kind === "place");
const stopped = (actions: ReconcileAction[]) =>
  actions.flatMap((a) => (a.kind === "stop" ? [`${a.replicaId}: ${a.reason}`] : []));

const two = model({ replicas: { min: 2, max: 2 } }, 2);
const old = (id: string, gpu: number, extra: Partial<ObservedReplica> = {}) =>
  replica(id, { modelRevision: 1, gpuIndexes: [gpu], createdAtMs: gpu, ...extra });
const fresh = (id: string, gpu: number, phase: ObservedReplica["phase"]) =>
  replica(id, { modelRevision: 2, gpuIndexes: [gpu], phase, createdAtMs: 10 + gpu });

function pass(models: ReturnType<typeof model>[], replicas: ObservedReplica[], nodeCards = 8) {
  const nodes = [liveNode("n1", { cards: cards(nodeCards) })];
  return planReconcile(input({ models, nodes, replicas })).actions;
}

describe("a surge restart", () => {
  it("starts one new replica beside the old ones, even at max, and stops none yet", () => {
    const actions = pass([two], [old("a", 0), old("b", 1)]);
    expect(placed(actions)).toHaveLength(1);
    expect(stopped(actions)).toEqual([]);
  });

  it("waits while the new replica starts, then stops one old one for it and starts the next", () => {
    const starting = pass([two], [old("a", 0), old("b", 1), fresh("n", 2, "starting")]);
    expect(starting).toEqual([]);
    const ready = pass([two], [old("a", 0), old("b", 1), fresh("n", 2, "ready")]);
    expect(stopped(ready)).toEqual(["b: replaced by the model's new definition"]);
    expect(placed(ready)).toHaveLength(1);
  });

  it("stops the last old replica once every new one is ready", () => {
    const replicas = [old("a", 0), fresh("n", 2, "ready"), fresh("m", 3, "ready")];
    const actions = pass([two], replicas);
    expect(stopped(actions)).toEqual(["a: replaced by the model's new definition"]);
    expect(placed(actions)).toEqual([]);
  });

  it("with no room beside, stops an old replica first and says why", () => {
    const actions = pass([two], [old("a", 0), old("b", 1)], 2);
    expect(placed(actions)).toEqual([]);
    expect(stopped(actions)).toEqual([
      "b: no room beside for a surge restart: restarting in place",
    ]);
  });

  it("waits for another model's restart under way that will free room", () => {
    const other = { ...model({ name: "other", replicas: { min: 1, max: 1 } }), revision: 2 };
    const replicas = [
      old("a", 0),
      old("b", 1),
      replica("o-old", { model: "other", modelRevision: 1, gpuIndexes: [2] }),
      replica("o-new", { model: "other", modelRevision: 2, gpuIndexes: [3], phase: "starting" }),
    ];
    const actions = pass([two, other], replicas, 4);
    expect(stopped(actions)).toEqual([]);
    expect(actions).toContainEqual({
      kind: "unplaceable",
      model: "qwen-7b",
      summary: 'model "qwen-7b" waits for the restart of other to free room',
      reasons: [],
    });
  });
});

describe("an in-place restart", () => {
  const inPlace = model({ replicas: { min: 2, max: 2 }, restart: "in-place" }, 2);

  it("stops one old replica before placing its replacement", () => {
    const actions = pass([inPlace], [old("a", 0), old("b", 1)]);
    expect(placed(actions)).toEqual([]);
    expect(stopped(actions)).toEqual([
      "b: restarting in place: stopped before its replacement starts",
    ]);
  });

  it("places the replacement once the old one has gone, one at a time", () => {
    const draining = [old("a", 0), old("b", 1, { phase: "draining" })];
    expect(pass([inPlace], draining)).toEqual([]);
    expect(placed(pass([inPlace], [old("a", 0)]))).toHaveLength(1);
    const starting = pass([inPlace], [old("a", 0), fresh("n", 1, "starting")]);
    expect(starting).toEqual([]);
  });
});
