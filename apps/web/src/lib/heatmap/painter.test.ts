import { describe, expect, it } from "vitest";
import { bucketOf, bucketPixels, packRgba } from "./colour";
import { bucketsFor } from "./cells";
import { computeLayout, type HeatmapLayout } from "./layout";
import { HeatmapPainter, type PaintSurface, type PixelStage } from "./painter";
import { must } from "@llmgw/domain";

/** A stage and a surface that record what the painter asks of the canvas. */
function recordingCanvas() {
  const calls: string[] = [];
  const puts: { x: number; y: number; width: number; height: number }[] = [];
  /** Each drawImage's source rectangle and where on the canvas it went. */
  const draws: number[][] = [];
  const stage: PixelStage = {
    source: {} as CanvasImageSource,
    allocate: (width, height) =>
      ({ data: new Uint8ClampedArray(width * height * 4), width, height }) as ImageData,
    put(_image, x, y, width, height) {
      calls.push("put");
      puts.push({ x, y, width, height });
    },
  };
  const surface = {
    fillStyle: "",
    font: "",
    textBaseline: "top",
    imageSmoothingEnabled: true,
    clearRect: () => calls.push("clear"),
    drawImage: (...args: unknown[]) => {
      calls.push(`draw smoothing=${String(surface.imageSmoothingEnabled)}`);
      draws.push(args.slice(1).map(Number));
    },
    fillText: (text: string) => calls.push(`text ${text}`),
  };
  return { stage, surface: surface as unknown as PaintSurface, calls, puts, draws };
}

const theme = {
  bucketPixels: bucketPixels([128, 128, 128, 255]),
  labelStyle: "white",
  labelFont: "10px sans",
};

function cellCorner(layout: HeatmapLayout, cell: number): [number, number] {
  return [must(layout.cellX[cell], "cell x"), must(layout.cellY[cell], "cell y")];
}

describe("heatmap painter", () => {
  const layout = computeLayout([4, 4], 500, 10);

  it("writes each card as a square of its bucket's colour and leaves the gaps empty", () => {
    const { stage, surface } = recordingCanvas();
    const painter = new HeatmapPainter(surface, stage);
    painter.setLayout(layout, ["a", "b"]);
    painter.setTheme(theme);
    const values = new Float32Array([0, 10, 20, 30, 40, 50, 60, NaN]);
    expect(painter.paint(bucketsFor(values, "utilization"))).toBe(8);
    for (let cell = 0; cell < 8; cell++) {
      const [x, y] = cellCorner(layout, cell);
      const wanted = theme.bucketPixels[bucketOf("utilization", values[cell])];
      expect(painter.pixelAt(x, y)).toBe(wanted);
      expect(painter.pixelAt(x + 9, y + 9)).toBe(wanted);
      // The gap right of the cell and below it.
      expect(painter.pixelAt(x + 10, y)).toBe(0);
      expect(painter.pixelAt(x, y + 10)).toBe(0);
    }
  });

  it("rewrites only the changed cards and copies only the rectangle around them", () => {
    const { stage, surface, calls, puts } = recordingCanvas();
    const painter = new HeatmapPainter(surface, stage);
    painter.setLayout(layout, []);
    painter.setTheme(theme);
    const values = new Float32Array(8).fill(40);
    painter.paint(bucketsFor(values, "utilization"));
    calls.length = 0;
    puts.length = 0;
    values[5] = 95;
    values[6] = 5;
    expect(painter.paint(bucketsFor(values, "utilization"))).toBe(2);
    const [x5, y5] = cellCorner(layout, 5);
    const [x6] = cellCorner(layout, 6);
    expect(painter.pixelAt(x5 + 1, y5 + 1)).toBe(theme.bucketPixels[bucketOf("utilization", 95)]);
    expect(puts).toEqual([{ x: x5, y: y5, width: x6 + 10 - x5, height: 10 }]);
    // One put, one cleared rectangle, one unsmoothed copy: however many cards changed.
    expect(calls).toEqual(["put", "clear", "draw smoothing=false"]);
    calls.length = 0;
    expect(painter.paint(bucketsFor(values, "utilization"))).toBe(0);
    expect(calls).toEqual([]);
  });

  it("repaints everything after a theme change or invalidate", () => {
    const { stage, surface, puts } = recordingCanvas();
    const painter = new HeatmapPainter(surface, stage);
    painter.setLayout(layout, []);
    painter.setTheme(theme);
    const buckets = bucketsFor(new Float32Array(8).fill(40), "utilization");
    painter.paint(buckets);
    painter.setTheme({ ...theme, bucketPixels: bucketPixels([0, 0, 0, 255]) });
    expect(painter.paint(buckets)).toBe(8);
    painter.invalidate();
    expect(painter.paint(buckets)).toBe(8);
    expect(puts.at(-1)).toMatchObject({ x: 0, y: 0, width: 500 });
  });

  it("writes and copies only the cards in view, and those a scroll brings into view", () => {
    // 64 nodes of 4 cards on a 100-pixel-wide area: a tall canvas, scrolled in a short view.
    const tall = computeLayout(new Array<number>(64).fill(4), 100, 10);
    expect(tall.hasLabels).toBe(false);
    const { stage, surface, puts } = recordingCanvas();
    const painter = new HeatmapPainter(surface, stage);
    painter.setLayout(tall, []);
    painter.setTheme(theme);
    painter.setViewport(0, 50);
    const values = new Float32Array(256).fill(40);
    const inView = (top: number, bottom: number) =>
      [...tall.cellY].filter((y) => y + 10 > top && y < bottom).length;
    const firstBand = inView(0, 50);
    expect(firstBand).toBeGreaterThan(0);
    expect(firstBand).toBeLessThan(256);
    expect(painter.paint(bucketsFor(values, "utilization"))).toBe(firstBand);
    expect(puts.at(-1)).toEqual({ x: 0, y: 0, width: 100, height: 50 });
    const below = must(
      tall.cellY.findIndex((y) => y >= 200),
      "a card below the view",
    );
    expect(painter.pixelAt(...cellCorner(tall, below))).toBe(0);
    // Scrolled down: the cards now in view are written, those painted before are not again.
    painter.setViewport(200, 250);
    expect(painter.paint(bucketsFor(values, "utilization"))).toBe(inView(200, 250));
    expect(painter.pixelAt(...cellCorner(tall, below))).toBe(
      theme.bucketPixels[bucketOf("utilization", 40)],
    );
    painter.setViewport(0, 50);
    expect(painter.paint(bucketsFor(values, "utilization"))).toBe(0);
    // An update out of view waits for its scroll; one in view is painted at once.
    values[below] = 95;
    values[0] = 95;
    expect(painter.paint(bucketsFor(values, "utilization"))).toBe(1);
    painter.setViewport(200, 250);
    expect(painter.paint(bucketsFor(values, "utilization"))).toBe(1);
  });

  it("draws onto a canvas as tall as the view, and copies the whole view when it scrolls", () => {
    const tall = computeLayout(new Array<number>(64).fill(4), 100, 10);
    const { stage, surface, draws } = recordingCanvas();
    const painter = new HeatmapPainter(surface, stage);
    painter.setLayout(tall, []);
    painter.setTheme(theme);
    const values = new Float32Array(256).fill(40);
    painter.setViewport(200, 250, 200);
    painter.paint(bucketsFor(values, "utilization"));
    // Rows 200-250 of the layout land at the canvas's top.
    expect(draws.at(-1)).toEqual([0, 200, 100, 50, 0, 0, 100, 50]);
    const cell = must(
      tall.cellY.findIndex((y) => y >= 210),
      "a card in view",
    );
    values[cell] = 95;
    painter.paint(bucketsFor(values, "utilization"));
    const [x, y] = cellCorner(tall, cell);
    expect(draws.at(-1)).toEqual([x, y, 10, 10, x, y - 200, 10, 10]);
    // Scrolled by 20 rows with nothing changed: the canvas shows other rows, so all are copied.
    painter.setViewport(220, 270, 220);
    painter.paint(bucketsFor(values, "utilization"));
    expect(draws.at(-1)).toEqual([0, 220, 100, 50, 0, 0, 100, 50]);
  });

  it("draws node labels after the copy, so the buffer cannot cover them", () => {
    const labelled = computeLayout([4, 4], 500, 20);
    expect(labelled.hasLabels).toBe(true);
    const { stage, surface, calls } = recordingCanvas();
    const painter = new HeatmapPainter(surface, stage);
    painter.setLayout(labelled, ["node-a", "node-b"]);
    painter.setTheme(theme);
    painter.paint(bucketsFor(new Float32Array(8).fill(40), "utilization"));
    expect(calls).toEqual(["put", "clear", "draw smoothing=false", "text node-a", "text node-b"]);
  });
});

describe("heatmap pixels", () => {
  it("packs a colour so the ImageData's bytes read red, green, blue, alpha", () => {
    const pixels = new Uint32Array([packRgba(1, 2, 3, 4)]);
    expect([...new Uint8ClampedArray(pixels.buffer)]).toEqual([1, 2, 3, 4]);
    const colours = bucketPixels([9, 9, 9, 255]);
    expect(colours).toHaveLength(256);
    expect([...new Uint8ClampedArray(colours.buffer, 255 * 4, 4)]).toEqual([9, 9, 9, 255]);
    // Bucket 0 is the ramp's cool blue: more blue than red.
    const [red = 0, , blue = 0] = new Uint8ClampedArray(colours.buffer, 0, 4);
    expect(blue).toBeGreaterThan(red);
  });
});
