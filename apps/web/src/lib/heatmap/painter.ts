// Paints heatmap cells onto a 2D canvas context. It remembers the bucket it last painted for each
// cell and repaints only cells whose bucket changed, grouped by bucket so each colour is set once
// per frame (a counting sort over 256 buckets, into arrays reused between frames). A new layout,
// theme or metric repaints everything once.
import type { HeatmapLayout } from "./layout";
import { NO_READING } from "./colour";

/** The part of CanvasRenderingContext2D the painter uses; tests pass a recording fake. */
export type PaintSurface = Pick<
  CanvasRenderingContext2D,
  "fillRect" | "clearRect" | "fillText" | "fillStyle" | "font" | "textBaseline"
>;

export interface PaintTheme {
  /** One fill style per bucket, 256 entries (the last is "no reading"). */
  bucketStyles: readonly string[];
  labelStyle: string;
  labelFont: string;
}

export class HeatmapPainter {
  private layout: HeatmapLayout | null = null;
  private labels: readonly string[] = [];
  private theme: PaintTheme | null = null;
  private painted = new Uint8Array(0);
  private order = new Uint32Array(0);
  private readonly counts = new Uint32Array(256);
  private readonly starts = new Uint32Array(256);
  private needsFullPaint = true;

  constructor(private readonly surface: PaintSurface) {}

  setLayout(layout: HeatmapLayout, labels: readonly string[]): void {
    this.layout = layout;
    this.labels = labels;
    const cells = layout.cellX.length;
    if (this.painted.length !== cells) {
      this.painted = new Uint8Array(cells);
      this.order = new Uint32Array(cells);
    }
    this.needsFullPaint = true;
  }

  setTheme(theme: PaintTheme): void {
    this.theme = theme;
    this.needsFullPaint = true;
  }

  /** Forgets what is on the canvas (after a resize, which clears it). */
  invalidate(): void {
    this.needsFullPaint = true;
  }

  /** Paints what changed since the last call; returns how many cells it painted. */
  paint(buckets: Uint8Array): number {
    const { layout, theme } = this;
    if (!layout || !theme || buckets.length !== this.painted.length) return 0;
    const isFull = this.needsFullPaint;
    if (isFull) this.paintBackground(layout, theme);
    this.needsFullPaint = false;
    const changed = this.sortChanged(buckets, isFull);
    const size = layout.cellSizePx;
    let next = 0;
    for (let bucket = 0; bucket < 256; bucket++) {
      const count = this.counts[bucket] ?? 0;
      if (count === 0) continue;
      this.surface.fillStyle = theme.bucketStyles[bucket] ?? theme.bucketStyles[NO_READING] ?? "";
      for (let end = next + count; next < end; next++) {
        const cell = this.order[next] ?? 0;
        this.surface.fillRect(layout.cellX[cell] ?? 0, layout.cellY[cell] ?? 0, size, size);
      }
    }
    this.painted.set(buckets);
    return changed;
  }

  /** Fills `order` with the changed cells grouped by bucket; returns how many changed. */
  private sortChanged(buckets: Uint8Array, isFull: boolean): number {
    const { counts, starts, order, painted } = this;
    counts.fill(0);
    let changed = 0;
    for (let cell = 0; cell < buckets.length; cell++) {
      const bucket = buckets[cell] ?? NO_READING;
      if (isFull || bucket !== painted[cell]) {
        counts[bucket] = (counts[bucket] ?? 0) + 1;
        changed += 1;
      }
    }
    let offset = 0;
    for (let bucket = 0; bucket < 256; bucket++) {
      starts[bucket] = offset;
      offset += counts[bucket] ?? 0;
    }
    for (let cell = 0; cell < buckets.length; cell++) {
      const bucket = buckets[cell] ?? NO_READING;
      if (!isFull && bucket === painted[cell]) continue;
      const start = starts[bucket] ?? 0;
      order[start] = cell;
      starts[bucket] = start + 1;
    }
    return changed;
  }

  private paintBackground(layout: HeatmapLayout, theme: PaintTheme): void {
    this.surface.clearRect(0, 0, layout.widthPx, layout.heightPx);
    if (!layout.hasLabels) return;
    this.surface.fillStyle = theme.labelStyle;
    this.surface.font = theme.labelFont;
    this.surface.textBaseline = "top";
    layout.blocks.forEach((block, index) => {
      const label = this.labels[index];
      if (label) this.surface.fillText(label, block.x, block.y, Math.max(block.width, 40));
    });
  }
}
