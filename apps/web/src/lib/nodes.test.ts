import { describe, expect, it } from "vitest";
import { gpuFixture, NARROW_PCIE_LINK, nodeSummaryFixture } from "./fixtures";
import { gpuCount, matchesFilter, sortNodes } from "@llmgw/api/schemas";
import { isPcieDegraded, labelPairs, nodeWarnings, osLabel } from "./nodes";

describe("gpuCount", () => {
  it("counts the cards of every model", () => {
    const node = nodeSummaryFixture({
      gpus: [gpuFixture(), gpuFixture({ index: 1, name: "NVIDIA L40S" }), gpuFixture({ index: 2 })],
    });
    expect(gpuCount(node)).toBe(3);
    expect(gpuCount(nodeSummaryFixture({ gpus: [] }))).toBe(0);
  });
});

describe("isPcieDegraded", () => {
  it("flags a link the server judged below the card's, not an idle generation or unknown values", () => {
    expect(isPcieDegraded(gpuFixture())).toBe(false);
    // An idle card drops its generation to save power (the RTX 2080 SUPER capture reads Gen1 of Gen3).
    expect(isPcieDegraded(gpuFixture({ pcieGenCurrent: 1 }))).toBe(false);
    expect(isPcieDegraded(gpuFixture({ pcieWidthCurrent: 8, pcieLink: NARROW_PCIE_LINK }))).toBe(
      true,
    );
    expect(isPcieDegraded(gpuFixture({ pcieLink: null }))).toBe(false);
  });
});

describe("matchesFilter", () => {
  const node = nodeSummaryFixture({
    name: "gpu-7",
    labels: { zone: "ist-1" },
    simulated: true,
    gpus: [gpuFixture()],
  });

  it("needs every word to match name, labels, GPU names or flags", () => {
    expect(matchesFilter(node, "")).toBe(true);
    expect(matchesFilter(node, "GPU-7 h100")).toBe(true);
    expect(matchesFilter(node, "zone=ist-1 simulated")).toBe(true);
    expect(matchesFilter(node, "gpu-7 l40s")).toBe(false);
  });
});

describe("sortNodes", () => {
  const nodes = [
    nodeSummaryFixture({ id: "a", name: "node-10", gpus: [gpuFixture()] }),
    nodeSummaryFixture({ id: "b", name: "node-2", gpus: [] }),
    nodeSummaryFixture({ id: "c", name: "node-1", gpus: [gpuFixture(), gpuFixture({ index: 1 })] }),
  ];

  it("sorts names numerically and can reverse", () => {
    expect(sortNodes(nodes, { key: "name", direction: "asc" }).map((n) => n.name)).toEqual([
      "node-1",
      "node-2",
      "node-10",
    ]);
    expect(sortNodes(nodes, { key: "name", direction: "desc" }).map((n) => n.name)).toEqual([
      "node-10",
      "node-2",
      "node-1",
    ]);
  });

  it("sorts by GPU count with the name breaking ties, without mutating the input", () => {
    expect(sortNodes(nodes, { key: "gpus", direction: "desc" }).map((n) => n.id)).toEqual([
      "c",
      "a",
      "b",
    ]);
    expect(nodes.map((n) => n.id)).toEqual(["a", "b", "c"]);
  });

  it("lists labels sorted as key=value", () => {
    expect(labelPairs({ zone: "b", gpu: "h100", spare: "" })).toEqual([
      "gpu=h100",
      "spare",
      "zone=b",
    ]);
  });
});

describe("nodeWarnings", () => {
  it("counts cards on a degraded PCIe link and flags a nearly full disk", () => {
    const node = nodeSummaryFixture({
      gpus: [
        gpuFixture(),
        gpuFixture({ index: 1, pcieWidthCurrent: 8, pcieLink: NARROW_PCIE_LINK }),
      ],
      disk: { bytesTotal: 100, bytesFree: 5 },
    });
    expect(nodeWarnings(node)).toEqual([
      { kind: "pcie", value: 1 },
      { kind: "diskLow", value: 5 },
    ]);
    expect(nodeWarnings(nodeSummaryFixture({ gpus: [gpuFixture()] }))).toEqual([]);
  });

  it("lets the filter find nodes with warnings and the table sort by them", () => {
    const warned = nodeSummaryFixture({
      id: "w",
      name: "b-warned",
      gpus: [gpuFixture({ pcieWidthCurrent: 8, pcieLink: NARROW_PCIE_LINK })],
    });
    const clean = nodeSummaryFixture({ id: "c", name: "a-clean", gpus: [gpuFixture()] });
    expect(matchesFilter(warned, "warning")).toBe(true);
    expect(matchesFilter(warned, "pcie")).toBe(true);
    expect(matchesFilter(clean, "warning")).toBe(false);
    const sorted = sortNodes([clean, warned], { key: "warnings", direction: "desc" });
    expect(sorted.map((node) => node.id)).toEqual(["w", "c"]);
    const bySimulated = sortNodes([clean, { ...warned, simulated: true }], {
      key: "simulated",
      direction: "desc",
    });
    expect(bySimulated[0]?.id).toBe("w");
  });
});

describe("osLabel", () => {
  it("drops the (simulated) an older agent appends; the badge says it in the page's language", () => {
    expect(osLabel("linux (simulated)")).toBe("linux");
    expect(osLabel("Ubuntu 24.04")).toBe("Ubuntu 24.04");
  });
});
