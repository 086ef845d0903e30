"use client";
// The heatmap benchmark page (bench/heatmap, goals P8 and P9): our HeatmapCanvas and a raw-canvas
// baseline side by side on one page, over the same 81,920 synthetic cards (10,240 nodes × 8). The
// runner (Playwright) calls window.llmgwHeatmapBench.measure(), which applies one update to one
// surface and resolves with the time from the update until the frame that shows it has been
// painted, and hover(), which moves the pointer onto a card and times it until its tooltip is painted.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useTranslation } from "react-i18next";
import { bucketOf, bucketStyles } from "../../lib/heatmap/colour";
import { fleetCardsOf } from "@llmgw/api/schemas";
import { fleetCells, type FleetCells } from "../../lib/heatmap/cells";
import { fitLayout, type HeatmapLayout } from "../../lib/heatmap/layout";
import { must } from "@llmgw/domain";
import { nextReadings, seededRandom, syntheticFleet } from "../../lib/heatmap/synthetic";
import { HeatmapCanvas } from "../cluster/heatmap-canvas";

const NODES = 10_240;
const CARDS_PER_NODE = 8;
const SURFACE = { width: 1100, height: 640 };

interface HeatmapBenchApi {
  cells: number;
  /** Applies one update to `surface` and resolves with update-to-paint milliseconds. */
  measure(surface: "component" | "baseline", changeShare: number): Promise<number>;
  domNodesInGrid(): number;
  /**
   * Moves the pointer onto the `pick`-th card in view (a pointermove on the canvas, as the browser
   * sends) and resolves with the milliseconds until the frame showing that card's tooltip is
   * painted; -1 when no tooltip (or another card's) came.
   */
  hover(pick: number): Promise<number>;
}

declare global {
  interface Window {
    llmgwHeatmapBench?: HeatmapBenchApi;
  }
}

/** Resolves after the next frame has been painted: rAF runs before paint, a task posted from it after. */
function afterNextPaint(): Promise<number> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(null);
    });
  });
}

/** Cards whose centre is inside the scrolled view of the surface, as client coordinates. */
function cardsInView(surface: HTMLElement): { cell: number; x: number; y: number }[] {
  const canvas = surface.querySelector<HTMLCanvasElement>('[data-testid="heatmap-canvas"]');
  const probe = (canvas as unknown as { heatmapProbe?: HeatmapProbeLike } | null)?.heatmapProbe;
  if (!canvas || !probe) return [];
  const box = canvas.getBoundingClientRect();
  const view = surface.getBoundingClientRect();
  return probe
    .cellsIn(view.top - box.top, view.bottom - box.top - 8)
    .map(({ cell, x, y }) => ({ cell, x: box.left + x, y: box.top + y }));
}

interface HeatmapProbeLike {
  cellsIn(top: number, bottom: number): { cell: number; x: number; y: number }[];
}

async function hoverOnce(surface: HTMLElement, pick: number): Promise<number> {
  const cards = cardsInView(surface);
  const target = cards[pick % Math.max(1, cards.length)];
  const canvas = surface.querySelector('[data-testid="heatmap-canvas"]');
  if (!target || !canvas) return -1;
  const started = performance.now();
  canvas.dispatchEvent(
    new PointerEvent("pointermove", { clientX: target.x, clientY: target.y, bubbles: true }),
  );
  const painted = await afterNextPaint();
  const tooltip = surface.querySelector('[data-testid="bench-tooltip"]');
  return tooltip?.getAttribute("data-cell") === String(target.cell) ? painted - started : -1;
}

/** The baseline: the simplest direct canvas code for the same picture, every cell every time. */
function paintBaseline(
  context: CanvasRenderingContext2D,
  layout: HeatmapLayout,
  values: Float32Array,
  styles: readonly string[],
): void {
  context.clearRect(0, 0, layout.widthPx, layout.heightPx);
  const size = layout.cellSizePx;
  for (let cell = 0; cell < values.length; cell++) {
    context.fillStyle = styles[bucketOf("utilization", values[cell])] ?? "";
    context.fillRect(layout.cellX[cell] ?? 0, layout.cellY[cell] ?? 0, size, size);
  }
}

export function HeatmapBench() {
  const { t } = useTranslation("cluster");
  const base = useMemo(
    () => fleetCells(fleetCardsOf(syntheticFleet(NODES, CARDS_PER_NODE, 7))),
    [],
  );
  const [cells, setCells] = useState<FleetCells>(base);
  const baselineRef = useRef<HTMLCanvasElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const state = useRef<{ cells: FleetCells; baseline: Float32Array; random: () => number }>({
    cells: base,
    baseline: new Float32Array(base.utilization),
    random: seededRandom(11),
  });
  const layout = useMemo(() => fitLayout(base.cardCounts, SURFACE.width, SURFACE.height), [base]);

  useEffect(() => {
    const canvas = must(baselineRef.current, "the baseline canvas");
    canvas.width = layout.widthPx;
    canvas.height = layout.heightPx;
    const context = must(canvas.getContext("2d"), "the baseline canvas's 2D context");
    const styles = bucketStyles("#555");
    paintBaseline(context, layout, state.current.baseline, styles);
    window.llmgwHeatmapBench = {
      cells: base.nodeOfCell.length,
      async measure(surface, changeShare) {
        const started = performance.now();
        const s = state.current;
        if (surface === "baseline") {
          s.baseline = nextReadings(s.baseline, changeShare, s.random);
          paintBaseline(context, layout, s.baseline, styles);
        } else {
          const next = {
            ...s.cells,
            utilization: nextReadings(s.cells.utilization, changeShare, s.random),
          };
          s.cells = next;
          flushSync(() => setCells(next));
        }
        return (await afterNextPaint()) - started;
      },
      hover: (pick) => hoverOnce(must(gridRef.current, "the component's surface"), pick),
      domNodesInGrid: () =>
        gridRef.current ? gridRef.current.querySelectorAll("*").length + 1 : -1,
    };
    return () => {
      delete window.llmgwHeatmapBench;
    };
  }, [base, layout]);

  const renderTooltip = useCallback(
    (cell: number) => (
      <span data-testid="bench-tooltip" data-cell={cell}>
        {cells.nodes[cells.nodeOfCell[cell] ?? -1]?.name}
      </span>
    ),
    [cells],
  );
  return (
    <div className="bench-page" data-testid="heatmap-bench" data-cells={base.nodeOfCell.length}>
      <div className="bench-surface" style={SURFACE} ref={gridRef} data-testid="bench-component">
        <HeatmapCanvas
          cells={cells}
          metric="utilization"
          renderTooltip={renderTooltip}
          label={t("heatmapLabel", { count: base.nodeOfCell.length, nodes: NODES })}
        />
      </div>
      <div className="bench-surface" style={SURFACE}>
        <canvas ref={baselineRef} data-testid="bench-baseline" />
      </div>
    </div>
  );
}
