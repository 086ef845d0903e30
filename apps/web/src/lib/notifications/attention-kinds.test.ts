import { describe, expect, it } from "vitest";
import type { EventView } from "@llmgw/api";
import { eventKindsFor, isNotifyKindList, planNotification } from "./attention-kinds";

type Row = Pick<EventView, "id" | "kind" | "subjectId" | "params">;
const ALL = ["nodeUnreachable", "modelParked", "engineFailed"] as const;

function unreachable(id: number, node: string): Row {
  return { id, kind: "node.unreachable", subjectId: `id-${node}`, params: { node } };
}

describe("planNotification", () => {
  it("makes a storm of unreachable nodes one notification counting nodes once each", () => {
    const events: Row[] = [
      unreachable(11, "gpu-5"),
      unreachable(12, "gpu-2"),
      unreachable(13, "gpu-3"),
      { id: 14, kind: "node.lost", subjectId: "id-gpu-2", params: { node: "gpu-2" } },
      unreachable(15, "gpu-4"),
      unreachable(16, "gpu-1"),
    ];
    expect(planNotification(events, 10, ALL)).toEqual({
      groups: [{ kind: "nodeUnreachable", count: 5, example: "gpu-1" }],
      newestId: 16,
    });
  });

  it("names a parked model, and puts several kinds in one notification, largest first", () => {
    const parked: Row = {
      id: 21,
      kind: "model.parked",
      subjectId: "crashy",
      params: { model: "crashy" },
    };
    expect(planNotification([parked], 20, ALL)?.groups).toEqual([
      { kind: "modelParked", count: 1, example: "crashy" },
    ]);
    const failed: Row = {
      id: 22,
      kind: "replica.failed",
      subjectId: "r-1",
      params: { model: "crashy" },
    };
    const plan = planNotification(
      [parked, failed, unreachable(23, "a"), unreachable(24, "b")],
      20,
      ALL,
    );
    expect(plan?.groups.map((group) => [group.kind, group.count])).toEqual([
      ["nodeUnreachable", 2],
      ["engineFailed", 1],
      ["modelParked", 1],
    ]);
  });

  it("counts each node with an expiring certificate once, named by the node", () => {
    const expiring = (id: number, node: string): Row => ({
      id,
      kind: "certificate.expiring",
      subjectId: `id-${node}`,
      params: { node, expiresAt: "2026-12-10T08:00:00.000Z", daysLeft: 6 },
    });
    expect(planNotification([expiring(41, "gpu-9")], 40, ["certificateExpiring"])).toEqual({
      groups: [{ kind: "certificateExpiring", count: 1, example: "gpu-9" }],
      newestId: 41,
    });
    expect(planNotification([expiring(41, "gpu-9")], 40, ALL)).toBeNull();
    expect(eventKindsFor(["certificateExpiring"])).toEqual(["certificate.expiring"]);
  });

  it("says nothing of events already seen, of kinds not chosen, or of other kinds", () => {
    const events: Row[] = [
      unreachable(5, "old"),
      { id: 31, kind: "model.parked", subjectId: "m", params: { model: "m" } },
      { id: 32, kind: "key.created", subjectId: "k", params: {} },
    ];
    expect(planNotification(events, 30, ["nodeUnreachable"])).toBeNull();
    expect(planNotification(events, 31, ALL)).toBeNull();
  });
});

describe("the chosen kinds", () => {
  it("ask the feed for exactly their event kinds", () => {
    expect(eventKindsFor(["modelParked"])).toEqual(["model.parked", "model.unplaceable"]);
    expect(eventKindsFor([])).toEqual([]);
  });

  it("are read back only when every entry is a known kind", () => {
    expect(isNotifyKindList(["modelParked", "engineFailed"])).toBe(true);
    expect(isNotifyKindList(["modelParked", "toaster"])).toBe(false);
    expect(isNotifyKindList("modelParked")).toBe(false);
  });
});
