// Paints heatmap cells through a pixel buffer. Every card is a small square of pixels in one
// Uint32Array (an ImageData over it, at the layout's CSS-pixel size); a refresh writes only the
// pixels of cards whose colour bucket changed, puts the changed rectangle of the buffer onto an
// offscreen stage canvas with one putImageData, and copies that rectangle onto the visible canvas
// with one drawImage, scaled to the device's pixels without smoothing. At 81,920 cards this is a
// few typed-array writes per card instead of 81,920 fillRect calls. Node labels are not in the
// buffer (putImageData would overwrite them): they are drawn on the visible canvas after the copy.
// Only the band of the canvas in view is written and copied (P9: at 81,920 cards the canvas is about
// four times the height of its scroll area); cards out of view keep their old colour in
// `painted` and are written when a scroll brings them into view (`setViewport`, then `paint`).
// The visible canvas itself is only as tall as the view (it stays in place while the area scrolls,
// `setViewport`'s origin says which row of the layout is at its top): the browser hands the whole
// canvas to its compositor on every frame that changes it, and at 81,920 cards a canvas of the
// layout's full height made that copy most of an update's time (bench:heatmap --trace).
import type { HeatmapLayout } from "./layout";
import { NO_READING } from "./colour";

/** The visible canvas: the painter copies the stage onto it and writes labels over the copy. */
export type PaintSurface = Pick<
  CanvasRenderingContext2D,
  "clearRect" | "drawImage" | "fillText" | "fillStyle" | "font" | "textBaseline"
> & { imageSmoothingEnabled: boolean };

/** The offscreen canvas that receives the buffer; the browser's is `canvasStage()`. */
export interface PixelStage {
  /** Resizes the stage (clearing it) and returns a blank ImageData of that size. */
  allocate(widthPx: number, heightPx: number): ImageData;
  /** putImageData of the rectangle (x, y, width, height) of `image`, placed at the origin. */
  put(image: ImageData, x: number, y: number, width: number, height: number): void;
  readonly source: CanvasImageSource;
}

export interface PaintTheme {
  /** One packed RGBA pixel per bucket, 256 entries (the last is "no reading"): see packRgba. */
  bucketPixels: Uint32Array;
  labelStyle: string;
  labelFont: string;
}

/** A rectangle in CSS pixels; empty when width or height is 0. */
export interface DirtyRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** `painted` holds this for a card never written since the last full paint. */
const UNPAINTED = 0xffff;

export class HeatmapPainter {
  private layout: HeatmapLayout | null = null;
  private labels: readonly string[] = [];
  private theme: PaintTheme | null = null;
  private painted = new Uint16Array(0);
  /** The rows of the layout in view, in CSS pixels; everything until told otherwise. */
  private view = { top: 0, bottom: Infinity };
  /** The row of the layout at the visible canvas's top, and the one the last paint drew at. */
  private originY = 0;
  private paintedOriginY = 0;
  private image: ImageData | null = null;
  private pixels = new Uint32Array(0);
  private stride = 0;
  private needsFullPaint = true;
  /** The rectangle the last paint copied (tests and the benchmark read it). */
  lastDirty: DirtyRect = { x: 0, y: 0, width: 0, height: 0 };

  constructor(
    private readonly surface: PaintSurface,
    private readonly stage: PixelStage,
  ) {}

  setLayout(layout: HeatmapLayout, labels: readonly string[]): void {
    this.layout = layout;
    this.labels = labels;
    if (this.painted.length !== layout.cellX.length)
      this.painted = new Uint16Array(layout.cellX.length);
    const widthPx = Math.max(1, Math.ceil(bufferWidthPx(layout)));
    const heightPx = Math.max(1, Math.ceil(layout.heightPx));
    this.image = this.stage.allocate(widthPx, heightPx);
    this.pixels = new Uint32Array(this.image.data.buffer);
    this.stride = widthPx;
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

  /**
   * The rows of the layout in view (CSS pixels), and the row at the visible canvas's top
   * (`originY`); the next paint writes the cards in view, and copies the whole view when the
   * canvas now shows other rows.
   */
  setViewport(top: number, bottom: number, originY = 0): void {
    this.view = { top: Math.max(0, top), bottom: Math.max(top, bottom) };
    this.originY = Math.max(0, originY);
  }

  /** The packed pixel at (x, y) of the buffer, in CSS pixels (tests read the picture with it). */
  pixelAt(x: number, y: number): number {
    return this.pixels[Math.floor(y) * this.stride + Math.floor(x)] ?? 0;
  }

  /** Paints what changed since the last call; returns how many cells it painted. */
  paint(buckets: Uint8Array): number {
    const { layout, theme, image } = this;
    if (!layout || !theme || !image || buckets.length !== this.painted.length) return 0;
    const isFull = this.needsFullPaint;
    this.needsFullPaint = false;
    const isMoved = this.originY !== this.paintedOriginY;
    this.paintedOriginY = this.originY;
    if (isFull) this.painted.fill(UNPAINTED);
    // Labels spill past their block, so a fleet with labels (large cells, few cards: a short
    // canvas) is written and recopied whole.
    const view = layout.hasLabels ? { top: 0, bottom: Infinity } : this.view;
    const dirty = this.writeChanged(layout, theme.bucketPixels, buckets, view);
    const top = Math.min(view.top, image.height);
    const whole = {
      x: 0,
      y: top,
      width: image.width,
      height: Math.min(view.bottom, image.height) - top,
    };
    const rect = isFull || isMoved || (layout.hasLabels && dirty.changed > 0) ? whole : dirty.rect;
    this.lastDirty = rect;
    if (rect.width > 0 && rect.height > 0) this.copy(layout, theme, image, rect);
    return dirty.changed;
  }

  /** Writes the changed cells in view; returns how many and the rectangle around them. */
  private writeChanged(
    layout: HeatmapLayout,
    colours: Uint32Array,
    buckets: Uint8Array,
    view: { top: number; bottom: number },
  ): { changed: number; rect: DirtyRect } {
    const { pixels, stride, painted } = this;
    const size = layout.cellSizePx;
    let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
    let changed = 0;
    for (let cell = 0; cell < buckets.length; cell++) {
      const bucket = buckets[cell] ?? NO_READING;
      if (bucket === painted[cell]) continue;
      const y = layout.cellY[cell] ?? 0;
      if (y + size <= view.top || y >= view.bottom) continue;
      const x = layout.cellX[cell] ?? 0;
      painted[cell] = bucket;
      const colour = colours[bucket] ?? colours[NO_READING] ?? 0;
      for (let row = y; row < y + size; row++) {
        const start = row * stride + x;
        pixels.fill(colour, start, start + size);
      }
      changed += 1;
      left = Math.min(left, x);
      top = Math.min(top, y);
      right = Math.max(right, x + size);
      bottom = Math.max(bottom, y + size);
    }
    const rect =
      changed === 0
        ? { x: 0, y: 0, width: 0, height: 0 }
        : { x: left, y: top, width: right - left, height: bottom - top };
    return { changed, rect };
  }

  private copy(layout: HeatmapLayout, theme: PaintTheme, image: ImageData, rect: DirtyRect): void {
    const { x, y, width, height } = rect;
    this.stage.put(image, x, y, width, height);
    const surface = this.surface;
    const atY = y - this.originY;
    surface.imageSmoothingEnabled = false;
    surface.clearRect(x, atY, width, height);
    surface.drawImage(this.stage.source, x, y, width, height, x, atY, width, height);
    if (!layout.hasLabels) return;
    surface.fillStyle = theme.labelStyle;
    surface.font = theme.labelFont;
    surface.textBaseline = "top";
    layout.blocks.forEach((block, index) => {
      const label = this.labels[index];
      if (label)
        surface.fillText(label, block.x, block.y - this.originY, Math.max(block.width, 40));
    });
  }
}

/** The layout's width, or wider where a single block overflows a very narrow area. */
function bufferWidthPx(layout: HeatmapLayout): number {
  let widthPx = layout.widthPx;
  for (const block of layout.blocks) widthPx = Math.max(widthPx, block.x + block.width);
  return widthPx;
}

/** The browser's stage: an OffscreenCanvas where there is one, else a detached <canvas>. */
export function canvasStage(): PixelStage {
  if (typeof OffscreenCanvas === "function") {
    const canvas = new OffscreenCanvas(1, 1);
    return stageOver(canvas, canvas.getContext("2d"));
  }
  const canvas = document.createElement("canvas");
  return stageOver(canvas, canvas.getContext("2d"));
}

function stageOver(
  canvas: HTMLCanvasElement | OffscreenCanvas,
  context: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null,
): PixelStage {
  if (!context) throw new Error("the heatmap's offscreen canvas has no 2D context");
  return {
    source: canvas,
    allocate(widthPx, heightPx) {
      canvas.width = widthPx;
      canvas.height = heightPx;
      return context.createImageData(widthPx, heightPx);
    },
    put(image, x, y, width, height) {
      context.putImageData(image, 0, 0, x, y, width, height);
    },
  };
}
