"use client";
// The fleet's cards on one <canvas>. React owns only the frame around it (a container, the canvas,
// one hover outline and one tooltip): the cells are painted by HeatmapPainter into a pixel buffer
// straight from typed arrays, and a refresh rewrites only the cards whose colour bucket changed. The layout is
// recomputed only when the set of nodes or the available size changes, so the grid never jumps.
// Only the cards in view are painted; a scroll paints those it brings into view. The canvas is as
// tall as the view and stays in place (sticky) while the stage under it scrolls: the browser copies
// a changed canvas whole for every frame, so a canvas of the whole layout cost that copy in full.
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import { bucketPixels, type HeatmapMetric } from "../../lib/heatmap/colour";
import { bucketsFor, layoutKey, valuesOf, type FleetCells } from "../../lib/heatmap/cells";
import { fitLayout, hitTest, type HeatmapLayout } from "../../lib/heatmap/layout";
import { canvasStage, HeatmapPainter } from "../../lib/heatmap/painter";

/** Tests and tools find a card's position through this, since the cells are not DOM nodes. */
interface HeatmapProbe {
  cellCenter(nodeId: string, cardIndex: number): { x: number; y: number } | null;
  /** Up to 500 cards (spread evenly) lying between two heights of the canvas, with their centres. */
  cellsIn(top: number, bottom: number): { cell: number; x: number; y: number }[];
}

const PROBE_CELLS_MAX = 500;

interface HeatmapCanvasProps {
  cells: FleetCells;
  metric: HeatmapMetric;
  label: string;
  renderTooltip?(cell: number): ReactNode;
  onOpenNode?(nodeId: string): void;
  /** Called after each paint with the cells repainted (the benchmark reads it). */
  onPainted?(count: number): void;
}

function useSize(element: HTMLElement | null): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => {
      const width = Math.floor(element.clientWidth);
      const height = Math.floor(element.clientHeight);
      setSize((old) => (old.width === width && old.height === height ? old : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return size;
}

function cssVariable(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** A CSS colour as RGBA bytes, as the browser resolves it (any syntax the theme uses). */
function cssColourRgba(css: string): [number, number, number, number] {
  const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
  if (!context) return [85, 85, 85, 255];
  context.fillStyle = css;
  context.fillRect(0, 0, 1, 1);
  const [red = 0, green = 0, blue = 0, alpha = 0] = context.getImageData(0, 0, 1, 1).data;
  return [red, green, blue, alpha];
}

/** Colours come from the theme's CSS variables; a theme switch changes data-theme on <html>. */
function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const observer = new MutationObserver(() => setVersion((v) => v + 1));
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ["data-theme"],
    });
    return () => observer.disconnect();
  }, []);
  return version;
}

function useCanvasSetup(
  canvas: HTMLCanvasElement | null,
  layout: HeatmapLayout | null,
  viewHeightPx: number,
  labels: readonly string[],
  themeVersion: number,
): HeatmapPainter | null {
  const [painter, setPainter] = useState<HeatmapPainter | null>(null);
  useLayoutEffect(() => {
    const context = canvas?.getContext("2d");
    setPainter(context ? new HeatmapPainter(context, canvasStage()) : null);
  }, [canvas]);
  useLayoutEffect(() => {
    if (!canvas || !painter || !layout) return;
    const ratio = window.devicePixelRatio || 1;
    // As tall as the view (the whole layout while the view is not measured yet).
    const heightPx = viewHeightPx > 0 ? Math.min(layout.heightPx, viewHeightPx) : layout.heightPx;
    canvas.width = Math.max(1, Math.round(layout.widthPx * ratio));
    canvas.height = Math.max(1, Math.round(heightPx * ratio));
    canvas.style.width = `${layout.widthPx}px`;
    canvas.style.height = `${heightPx}px`;
    canvas.getContext("2d")?.setTransform(ratio, 0, 0, ratio, 0, 0);
    painter.setLayout(layout, labels);
  }, [canvas, painter, layout, viewHeightPx, labels]);
  useLayoutEffect(() => {
    painter?.setTheme({
      bucketPixels: bucketPixels(cssColourRgba(cssVariable("--heatmap-empty", "#555"))),
      labelStyle: cssVariable("--text-muted", "#888"),
      labelFont: "11px system-ui, sans-serif",
    });
  }, [painter, themeVersion]);
  return painter;
}

/** The stage under the canvas: the layout's full size, whose rows the canvas shows a band of. */
function stageOf(canvas: HTMLElement): HTMLElement {
  return canvas.parentElement ?? canvas;
}

/**
 * The rows of the layout inside the scroll area and the window (the painter writes only those),
 * and the row at the canvas's top.
 */
function setViewport(painter: HeatmapPainter, canvas: HTMLElement, container: HTMLElement): void {
  const box = stageOf(canvas).getBoundingClientRect();
  const view = container.getBoundingClientRect();
  const top = Math.max(view.top, 0) - box.top;
  const bottom = Math.min(view.bottom, window.innerHeight) - box.top;
  painter.setViewport(top, bottom, canvas.getBoundingClientRect().top - box.top);
}

/** How far down the stage the canvas sits now (it stays in view while the stage scrolls). */
function canvasOffsetPx(canvas: HTMLElement): number {
  return canvas.getBoundingClientRect().top - stageOf(canvas).getBoundingClientRect().top;
}

/** A scroll (of the area or any ancestor) paints the cards it brings into view, once a frame. */
function useRevealOnScroll(
  painter: HeatmapPainter | null,
  canvas: HTMLElement | null,
  container: HTMLElement | null,
  buckets: { current: Uint8Array },
): void {
  useEffect(() => {
    if (!painter || !canvas || !container) return;
    let frame = 0;
    const onScroll = () => {
      if (frame !== 0) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setViewport(painter, canvas, container);
        painter.paint(buckets.current);
      });
    };
    window.addEventListener("scroll", onScroll, { capture: true, passive: true });
    window.addEventListener("resize", onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", onScroll, { capture: true });
      window.removeEventListener("resize", onScroll);
    };
  }, [painter, canvas, container, buckets]);
}

export function HeatmapCanvas(props: HeatmapCanvasProps) {
  const { cells, metric, onPainted } = props;
  const [container, setContainer] = useState<HTMLDivElement | null>(null);
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null);
  const [hovered, setHovered] = useState<{ cell: number; x: number; y: number } | null>(null);
  const size = useSize(container);
  const themeVersion = useThemeVersion();
  const cardCounts = cells.cardCounts;
  // A refresh that only brings new readings keeps these arrays, so the key (a string over every
  // node) is not rebuilt on each update or hover.
  const key = useMemo(() => layoutKey(cells), [cells.nodes, cardCounts]);
  // The layout depends on which nodes exist and their card counts (the key), not on readings.
  const labels = useMemo(() => cells.nodes.map((node) => node.name), [key]);
  const layout = useMemo(
    () => (size.width > 0 ? fitLayout(cardCounts, size.width, size.height) : null),
    [key, size.width, size.height],
  );
  const painter = useCanvasSetup(canvas, layout, size.height, labels, themeVersion);
  const buckets = useRef<Uint8Array>(new Uint8Array(0));

  useLayoutEffect(() => {
    if (!painter || !layout || !canvas || !container) return;
    buckets.current = bucketsFor(valuesOf(cells, metric), metric, buckets.current);
    setViewport(painter, canvas, container);
    const painted = painter.paint(buckets.current);
    onPainted?.(painted);
  }, [painter, layout, canvas, container, cells, metric, themeVersion, onPainted]);
  useRevealOnScroll(painter, canvas, container, buckets);

  useEffect(() => {
    if (!canvas) return;
    const probe: HeatmapProbe = {
      // Positions on the canvas element as it sits now, as a click on it is given.
      cellCenter(nodeId, cardIndex) {
        if (!layout) return null;
        const offset = canvasOffsetPx(canvas);
        for (let cell = 0; cell < cells.nodeOfCell.length; cell++) {
          if (cells.nodes[cells.nodeOfCell[cell] ?? -1]?.id !== nodeId) continue;
          if (cells.cardOfCell[cell] !== cardIndex) continue;
          const half = layout.cellSizePx / 2;
          return {
            x: (layout.cellX[cell] ?? 0) + half,
            y: (layout.cellY[cell] ?? 0) + half - offset,
          };
        }
        return null;
      },
      cellsIn(top, bottom) {
        if (!layout) return [];
        const offset = canvasOffsetPx(canvas);
        const half = layout.cellSizePx / 2;
        const inside: number[] = [];
        for (let cell = 0; cell < layout.cellY.length; cell++) {
          const y = (layout.cellY[cell] ?? -1) - offset;
          if (y >= top && y + layout.cellSizePx <= bottom) inside.push(cell);
        }
        const step = Math.max(1, Math.floor(inside.length / PROBE_CELLS_MAX));
        return inside
          .filter((_, i) => i % step === 0)
          .map((cell) => ({
            cell,
            x: (layout.cellX[cell] ?? 0) + half,
            y: (layout.cellY[cell] ?? 0) + half - offset,
          }));
      },
    };
    Object.assign(canvas, { heatmapProbe: probe });
  }, [canvas, layout, cells]);

  const cellAt = useCallback(
    (event: React.PointerEvent<HTMLCanvasElement>) => {
      if (!layout) return -1;
      // The canvas shows a band of the stage: the stage's corner is the layout's origin.
      const box = stageOf(event.currentTarget).getBoundingClientRect();
      return hitTest(layout, event.clientX - box.left, event.clientY - box.top);
    },
    [layout],
  );
  const onPointerMove = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const cell = cellAt(event);
    if (cell < 0) return setHovered(null);
    // cellAt found a cell, so there is a layout and the cell is inside it.
    if (hovered?.cell !== cell && layout)
      setHovered({ cell, x: layout.cellX[cell] ?? 0, y: layout.cellY[cell] ?? 0 });
  };
  const onClick = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const cell = cellAt(event);
    const node = cell >= 0 ? cells.nodes[cells.nodeOfCell[cell] ?? -1] : undefined;
    if (node) props.onOpenNode?.(node.id);
  };

  const hoveredCell = hovered && hovered.cell < cells.nodeOfCell.length ? hovered : null;
  return (
    <div className="heatmap-scroll" ref={setContainer}>
      <div className="heatmap-stage" style={layout ? { height: layout.heightPx } : undefined}>
        <canvas
          ref={setCanvas}
          className="heatmap-canvas"
          role="img"
          aria-label={props.label}
          data-testid="heatmap-canvas"
          data-cell-count={cells.nodeOfCell.length}
          data-metric={metric}
          onPointerMove={onPointerMove}
          onPointerLeave={() => setHovered(null)}
          onClick={onClick}
        />
        {hoveredCell && layout ? (
          <>
            <div
              className="heatmap-hover"
              style={{
                left: hoveredCell.x - 2,
                top: hoveredCell.y - 2,
                width: layout.cellSizePx + 4,
                height: layout.cellSizePx + 4,
              }}
            />
            {props.renderTooltip ? (
              <div
                className="heatmap-tooltip"
                data-testid="heatmap-tooltip"
                style={tooltipPosition(hoveredCell, layout)}
              >
                {props.renderTooltip(hoveredCell.cell)}
              </div>
            ) : null}
          </>
        ) : null}
      </div>
    </div>
  );
}

/** Right of the cell, or left of it near the right edge, so the tooltip stays on screen. */
function tooltipPosition(cell: { x: number; y: number }, layout: HeatmapLayout) {
  const isRightHalf = cell.x > layout.widthPx / 2;
  return isRightHalf
    ? { right: layout.widthPx - cell.x + 8, top: cell.y }
    : { left: cell.x + layout.cellSizePx + 8, top: cell.y };
}
