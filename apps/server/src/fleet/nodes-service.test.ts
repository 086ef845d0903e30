import type { GpuRow } from "@llmgw/db";
import { describe, expect, it } from "vitest";
import { pcieLinkView } from "./node-view-parts";

function card(link: Partial<GpuRow>): GpuRow {
  return {
    uuid: "GPU-a",
    nodeId: "node-a",
    index: 0,
    name: "NVIDIA GeForce RTX 2080 SUPER",
    memoryBytesTotal: 8 * 1024 ** 3,
    computeCapability: "7.5",
    pcieGenMax: null,
    pcieGenCardMax: null,
    pcieGenCurrent: null,
    pcieWidthMax: null,
    pcieWidthCurrent: null,
    pciBusId: null,
    isMigEnabled: false,
    powerLimitWatts: null,
    updatedAt: new Date(0),
    ...link,
  };
}

describe("pcieLinkView", () => {
  it("does not warn of an idle card whose link dropped to Gen1 (the RTX 2080 SUPER capture)", () => {
    const view = pcieLinkView(
      card({
        pcieGenMax: 3,
        pcieGenCardMax: 3,
        pcieGenCurrent: 1,
        pcieWidthMax: 16,
        pcieWidthCurrent: 16,
      }),
    );
    expect(view).toMatchObject({ isBelowCapability: false, reason: null });
    expect(view?.carriedGBps).toBeCloseTo(15.75, 2);
    expect(view?.possibleGBps).toBeCloseTo(15.75, 2);
  });

  it("warns of a card on half its lanes with the GB/s it carries and could", () => {
    const view = pcieLinkView(
      card({
        pcieGenMax: 4,
        pcieGenCardMax: 4,
        pcieGenCurrent: 4,
        pcieWidthMax: 16,
        pcieWidthCurrent: 8,
      }),
    );
    expect(view?.isBelowCapability).toBe(true);
    expect(view?.carriedGBps).toBeCloseTo(15.75, 2);
    expect(view?.possibleGBps).toBeCloseTo(31.51, 2);
  });

  it("says nothing of a card whose driver reported no link", () => {
    expect(pcieLinkView(card({}))).toBeNull();
  });
});
