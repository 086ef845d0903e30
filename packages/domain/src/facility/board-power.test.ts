import { describe, expect, it } from "vitest";
import { countedDraw, derivedDrawWatts } from "./board-power";

describe("derived draw", () => {
  it("reads the published board power from the name nvidia-smi gives", () => {
    expect(derivedDrawWatts("NVIDIA H100 80GB HBM3")).toBe(700);
    expect(derivedDrawWatts("NVIDIA H100 PCIe")).toBe(350);
    expect(derivedDrawWatts("NVIDIA H100 NVL")).toBe(400);
    expect(derivedDrawWatts("NVIDIA H200")).toBe(700);
    expect(derivedDrawWatts("NVIDIA H200 NVL")).toBe(600);
    expect(derivedDrawWatts("NVIDIA L40S")).toBe(350);
    expect(derivedDrawWatts("NVIDIA L40")).toBe(300);
    expect(derivedDrawWatts("NVIDIA L4")).toBe(72);
    expect(derivedDrawWatts("NVIDIA A100-SXM4-80GB")).toBe(400);
    expect(derivedDrawWatts("NVIDIA A100-PCIE-40GB")).toBe(300);
    expect(derivedDrawWatts("NVIDIA GeForce RTX 4090")).toBe(450);
    expect(derivedDrawWatts("NVIDIA RTX 6000 Ada Generation")).toBe(300);
    expect(derivedDrawWatts("NVIDIA RTX A6000")).toBe(300);
  });

  it("derives nothing for a card it does not know", () => {
    expect(derivedDrawWatts("NVIDIA A10G")).toBeUndefined();
    expect(derivedDrawWatts("Some Future Card")).toBeUndefined();
  });
});

describe("counted draw", () => {
  it("takes the highest figure and names where it came from", () => {
    expect(countedDraw({ "power limit": 700, measured: 640 })).toEqual({
      watts: 700,
      from: "power limit",
    });
    expect(countedDraw({ derived: 300, measured: 450 })).toEqual({ watts: 450, from: "measured" });
    expect(countedDraw({ catalog: 800, "power limit": 700, derived: 700 })).toEqual({
      watts: 800,
      from: "catalog",
    });
  });

  it("names the declared figure on a tie with the derived one", () => {
    expect(countedDraw({ "power limit": 700, derived: 700 })).toEqual({
      watts: 700,
      from: "power limit",
    });
  });

  it("counts nothing when no figure is above zero", () => {
    expect(countedDraw({ derived: undefined, measured: 0, "power limit": null })).toBeUndefined();
  });
});
