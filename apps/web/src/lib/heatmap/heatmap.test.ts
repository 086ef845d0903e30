import { describe, expect, it } from "vitest";
import { bucketOf, bucketStyles, legendTicks, NO_READING, rampColour } from "./colour";
import { gpuFixture, nodeFixture } from "../fixtures";
import { fleetCells, layoutKey } from "./cells";
import {
  CELL_SIZE_MAX_PX,
  CELL_SIZE_MIN_PX,
  computeLayout,
  fitLayout,
  hitTest,
  LABEL_HEIGHT_PX,
} from "./layout";
import { seededRandom } from "./synthetic";
import { must } from "@llmgw/domain";
import { fleetCardsOf } from "@llmgw/api/schemas";

describe("heatmap layout", () => {
  it("places every card once, node blocks side by side, four cards to a row", () => {
    const layout = computeLayout([8, 4, 0, 2], 1000, 20);
    expect(layout.cellX).toHaveLength(14);
    expect(layout.hasLabels).toBe(true);
    const pitch = layout.pitchPx;
    expect(pitch).toBe(22);
    // Node 0, card 5 is the second cell of its second row.
    expect([layout.cellX[5], layout.cellY[5]]).toEqual([pitch, LABEL_HEIGHT_PX + pitch]);
    // Node 1 starts to the right of node 0's block.
    expect(layout.cellX[8]).toBeGreaterThan(must(layout.cellX[3], "cell 3") + 20);
    expect(layout.cellY[8]).toBe(LABEL_HEIGHT_PX);
    const seen = new Set<string>();
    for (let i = 0; i < 14; i++) seen.add(`${layout.cellX[i]},${layout.cellY[i]}`);
    expect(seen.size).toBe(14);
  });

  it("wraps blocks onto a new shelf when the width is used up", () => {
    const layout = computeLayout([4, 4, 4], 200, 20);
    const [first, second, third] = layout.blocks;
    expect([first?.y, second?.y]).toEqual([0, 0]);
    expect(third?.y).toBeGreaterThan(0);
    expect(third?.x).toBe(0);
    for (const block of layout.blocks) expect(block.x + block.width).toBeLessThanOrEqual(200);
  });

  it("fits the largest cell size that keeps the fleet inside the area", () => {
    const small = fitLayout([8, 4], 800, 600);
    expect(small.cellSizePx).toBe(CELL_SIZE_MAX_PX);
    const big = fitLayout(Array(2048).fill(8), 1200, 800);
    expect(big.heightPx).toBeLessThanOrEqual(800);
    expect(computeLayout(Array(2048).fill(8), 1200, big.cellSizePx + 1).heightPx).toBeGreaterThan(
      800,
    );
    expect(big.hasLabels).toBe(false);
    // Far too many cards for the area: the smallest size, and the page scrolls.
    expect(fitLayout(Array(5000).fill(8), 300, 100).cellSizePx).toBe(CELL_SIZE_MIN_PX);
  });

  it("finds the cell under a point and nothing in the gaps", () => {
    const layout = computeLayout([8, 4], 1000, 20);
    for (const cell of [0, 5, 9, 11]) {
      const [x, y] = [must(layout.cellX[cell], "cell x"), must(layout.cellY[cell], "cell y")];
      expect(hitTest(layout, x + 10, y + 10)).toBe(cell);
    }
    const [x0, y0] = [must(layout.cellX[0], "cell x"), must(layout.cellY[0], "cell y")];
    expect(hitTest(layout, x0 + 21, y0 + 5)).toBe(-1);
    expect(hitTest(layout, 5, 5)).toBe(-1); // the label strip
    expect(hitTest(layout, 999, 999)).toBe(-1);
  });

  it(
    "hit-tests 81,920 cards (nodes of 0 to 8) exactly as a scan of every cell would",
    {
      timeout: 30_000,
    },
    () => {
      const random = seededRandom(5);
      const counts = Array.from({ length: 10_240 }, (_, i) =>
        i % 7 === 3 ? Math.floor(random() * 9) : 8,
      );
      const layout = computeLayout(counts, 1100, CELL_SIZE_MIN_PX);
      const size = layout.cellSizePx;
      // Every cell's centre and corners find that cell (mismatches collected: 245,760 expects are slow).
      const wrong: number[] = [];
      for (let cell = 0; cell < layout.cellX.length; cell++) {
        const [x, y] = [must(layout.cellX[cell], "cell x"), must(layout.cellY[cell], "cell y")];
        const found = [
          hitTest(layout, x + size / 2, y + size / 2),
          hitTest(layout, x, y),
          hitTest(layout, x + size - 0.01, y + size - 0.01),
        ];
        if (found.some((hit) => hit !== cell)) wrong.push(cell);
      }
      expect(wrong).toEqual([]);
      // Random points, gaps included, agree with the scan.
      const scan = (x: number, y: number) => {
        for (let cell = 0; cell < layout.cellX.length; cell++) {
          const [cx, cy] = [layout.cellX[cell] ?? NaN, layout.cellY[cell] ?? NaN];
          if (x >= cx && x < cx + size && y >= cy && y < cy + size) return cell;
        }
        return -1;
      };
      for (let i = 0; i < 100; i++) {
        const [x, y] = [
          random() * (layout.widthPx + 20) - 10,
          random() * (layout.heightPx + 20) - 10,
        ];
        expect(hitTest(layout, x, y)).toBe(scan(x, y));
      }
    },
  );
});

describe("heatmap colour scale", () => {
  it("maps each metric's range onto buckets 0..254 and clamps outside it", () => {
    expect(bucketOf("utilization", 0)).toBe(0);
    expect(bucketOf("utilization", 100)).toBe(254);
    expect(bucketOf("utilization", 50)).toBe(127);
    expect(bucketOf("utilization", 150)).toBe(254);
    expect(bucketOf("temperature", 25)).toBe(0);
    expect(bucketOf("temperature", 10)).toBe(0);
    expect(bucketOf("temperature", 90)).toBe(254);
    expect(bucketOf("memory", null)).toBe(NO_READING);
    expect(bucketOf("memory", NaN)).toBe(NO_READING);
  });

  it("runs from cool blue to hot red through the ramp's stops", () => {
    const [r0, , b0] = rampColour(0);
    const [r1, , b1] = rampColour(1);
    expect(b0).toBeGreaterThan(r0);
    expect(r1).toBeGreaterThan(b1);
    expect(rampColour(0.5)).not.toEqual(rampColour(0.6));
    const styles = bucketStyles("#333");
    expect(styles).toHaveLength(256);
    expect(styles[NO_READING]).toBe("#333");
    expect(legendTicks("temperature", 3)).toEqual([25, 57.5, 90]);
  });
});

describe("fleet cells", () => {
  it("keeps nodes with cards, sorted by name, with NaN for missing readings", () => {
    const cells = fleetCells(
      fleetCardsOf([
        nodeFixture({
          id: "b",
          name: "b",
          gpus: [gpuFixture(), gpuFixture({ index: 1, utilizationPercent: null })],
        }),
        nodeFixture({ id: "cpu", name: "a-cpu", gpus: [] }),
        nodeFixture({
          id: "a",
          name: "a",
          gpus: [gpuFixture({ memoryBytesUsed: (81_559 * 1024 ** 2) / 2 })],
        }),
      ]),
    );
    expect(cells.nodes.map((node) => node.id)).toEqual(["a", "b"]);
    expect(cells.cardCounts).toEqual([1, 2]);
    expect([...cells.cardOfCell]).toEqual([0, 0, 1]);
    expect(cells.memory[0]).toBeCloseTo(50);
    expect(Number.isNaN(cells.utilization[2])).toBe(true);
    expect([...cells.nodeOfCell]).toEqual([0, 1, 1]);
    expect(cells.cardNames[cells.nameOfCell[1] ?? -1]).toBe("NVIDIA H100 80GB HBM3");
    expect(cells.memoryBytesTotal[1]).toBe(81_559 * 1024 ** 2);
    expect(layoutKey(cells)).toBe("a:1,b:2");
  });
});
