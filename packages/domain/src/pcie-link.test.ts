import { describe, expect, it } from "vitest";
import { assessPcieLink, pcieBandwidthGBps } from "./pcie-link";

describe("pcieBandwidthGBps", () => {
  it("gives the usual per-direction figures for x16 links", () => {
    expect(pcieBandwidthGBps(3, 16)).toBeCloseTo(15.75, 2);
    expect(pcieBandwidthGBps(4, 16)).toBeCloseTo(31.51, 2);
    expect(pcieBandwidthGBps(5, 16)).toBeCloseTo(63.02, 2);
    expect(pcieBandwidthGBps(1, 16)).toBe(4);
  });
});

describe("assessPcieLink", () => {
  it("says nothing of an idle RTX 2080 SUPER whose link dropped to Gen1 (the project's capture)", () => {
    // linux-x86_64__nvidia-geforce-rtx-2080-super__595.71.05.txt, idle: pcie.link.gen.max 3,
    // gpumax 3, hostmax 4, gen.current 1, width.max 16, width.current 16.
    const link = assessPcieLink({
      pcieGenMax: 3,
      pcieGenCardMax: 3,
      pcieWidthMax: 16,
      pcieWidthCurrent: 16,
    });
    expect(link?.isBelowCapability).toBe(false);
    expect(link?.reason).toBeNull();
    expect(link?.carried.bandwidthGBps).toBeCloseTo(15.75, 2);
    expect(link?.possible.bandwidthGBps).toBeCloseTo(15.75, 2);
  });

  it("reports a card on fewer lanes than it has, with the GB/s it carries and could", () => {
    const link = assessPcieLink({
      pcieGenMax: 4,
      pcieGenCardMax: 4,
      pcieWidthMax: 16,
      pcieWidthCurrent: 8,
    });
    expect(link?.isBelowCapability).toBe(true);
    expect(link?.carried).toMatchObject({ gen: 4, width: 8 });
    expect(link?.reason).toBe(
      "PCIe link below the card's: x8 of its x16 lanes in use; it carries 15.8 GB/s of 31.5 GB/s",
    );
  });

  it("reports a Gen5 card in a Gen4 slot", () => {
    const link = assessPcieLink({
      pcieGenMax: 4,
      pcieGenCardMax: 5,
      pcieWidthMax: 16,
      pcieWidthCurrent: 16,
    });
    expect(link?.isBelowCapability).toBe(true);
    expect(link?.possible).toMatchObject({ gen: 5, width: 16 });
    expect(link?.reason).toBe(
      "PCIe link below the card's: the slot allows Gen4, the card Gen5; it carries 31.5 GB/s of 63 GB/s",
    );
  });

  it("judges nothing without a generation or a lane count, and takes an unreported width as all lanes", () => {
    expect(assessPcieLink({ pcieWidthMax: 16, pcieWidthCurrent: 8 })).toBeNull();
    expect(assessPcieLink({ pcieGenMax: 5, pcieGenCardMax: 5, pcieWidthMax: null })).toBeNull();
    expect(assessPcieLink({ pcieGenMax: 5, pcieWidthMax: 16 })?.isBelowCapability).toBe(false);
  });
});
