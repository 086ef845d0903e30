// Where each card of the fleet sits on the heatmap canvas. Pure arithmetic over typed arrays, so a
// 16,384-card fleet lays out in well under a millisecond and the drawing code never allocates per
// cell. Cards are grouped by node: each node is a small block of cells (at most COLUMNS_PER_NODE
// wide), and blocks flow left to right in shelves, like words in a paragraph.

const COLUMNS_PER_NODE = 4;
/** Gaps shrink with the cells, so a 16k-card fleet is not mostly gaps. */
function cellGapPx(cellSizePx: number): number {
  return cellSizePx >= 10 ? 2 : 1;
}
function blockGapPx(cellSizePx: number): number {
  return Math.max(3, Math.round(cellSizePx / 2));
}
export const CELL_SIZE_MAX_PX = 44;
export const CELL_SIZE_MIN_PX = 4;
/** Node names are drawn above their block only when cells are at least this large. */
const LABEL_MIN_CELL_PX = 14;
export const LABEL_HEIGHT_PX = 16;

interface HeatmapBlock {
  x: number;
  y: number;
  width: number;
  height: number;
  firstCell: number;
  cellCount: number;
  columns: number;
}

export interface HeatmapLayout {
  cellSizePx: number;
  /** Cell size plus the gap between cells of one node. */
  pitchPx: number;
  widthPx: number;
  heightPx: number;
  hasLabels: boolean;
  /** Top-left corner of every cell, in cell order (node by node, card by card). */
  cellX: Float32Array;
  cellY: Float32Array;
  blocks: HeatmapBlock[];
}

function blockSize(cellCount: number, cellSizePx: number, labelPx: number) {
  const columns = Math.max(1, Math.min(COLUMNS_PER_NODE, cellCount));
  const rows = Math.max(1, Math.ceil(cellCount / COLUMNS_PER_NODE));
  const gap = cellGapPx(cellSizePx);
  const pitch = cellSizePx + gap;
  return {
    columns,
    width: columns * pitch - gap,
    height: rows * pitch - gap + labelPx,
  };
}

/** Lays out one block per node; `cardCounts[i]` is the number of cards of the i-th node. */
export function computeLayout(
  cardCounts: readonly number[],
  widthPx: number,
  cellSizePx: number,
): HeatmapLayout {
  const total = cardCounts.reduce((sum, count) => sum + count, 0);
  const cellX = new Float32Array(total);
  const cellY = new Float32Array(total);
  const hasLabels = cellSizePx >= LABEL_MIN_CELL_PX;
  const labelPx = hasLabels ? LABEL_HEIGHT_PX : 0;
  const pitch = cellSizePx + cellGapPx(cellSizePx);
  const blockGap = blockGapPx(cellSizePx);
  const blocks: HeatmapBlock[] = [];
  let x = 0;
  let y = 0;
  let shelfHeight = 0;
  let cell = 0;
  for (const count of cardCounts) {
    const size = blockSize(count, cellSizePx, labelPx);
    if (x > 0 && x + size.width > widthPx) {
      x = 0;
      y += shelfHeight + blockGap;
      shelfHeight = 0;
    }
    blocks.push({
      x,
      y,
      width: size.width,
      height: size.height,
      firstCell: cell,
      cellCount: count,
      columns: size.columns,
    });
    for (let card = 0; card < count; card++, cell++) {
      cellX[cell] = x + (card % COLUMNS_PER_NODE) * pitch;
      cellY[cell] = y + labelPx + Math.floor(card / COLUMNS_PER_NODE) * pitch;
    }
    x += size.width + blockGap;
    shelfHeight = Math.max(shelfHeight, size.height);
  }
  return {
    cellSizePx,
    pitchPx: pitch,
    widthPx,
    heightPx: y + shelfHeight,
    hasLabels,
    cellX,
    cellY,
    blocks,
  };
}

/**
 * The largest cell size (whole pixels, between the limits) at which the fleet fits the given
 * area; the smallest one when nothing fits, and the area then scrolls.
 */
export function fitLayout(
  cardCounts: readonly number[],
  widthPx: number,
  heightPx: number,
): HeatmapLayout {
  let low = CELL_SIZE_MIN_PX;
  let high = CELL_SIZE_MAX_PX;
  // Height grows monotonically with cell size, so a binary search finds the largest that fits.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (computeLayout(cardCounts, widthPx, middle).heightPx <= heightPx) low = middle;
    else high = middle - 1;
  }
  return computeLayout(cardCounts, widthPx, low);
}

/** Which block covers each pixel column of each shelf: hover becomes two array reads. */
interface HitGrid {
  /** The shelf each pixel row belongs to, or -1 in the gaps between shelves. */
  shelfOfRow: Int32Array;
  /** Per shelf, `widthPx` entries: the block covering that pixel column, or -1. */
  blockOfColumn: Int32Array;
  widthPx: number;
}

const hitGrids = new WeakMap<HeatmapLayout, HitGrid>();

/** Built on the first hover of a layout (fitLayout tries several sizes; only one is shown). */
function hitGridFor(layout: HeatmapLayout): HitGrid {
  const cached = hitGrids.get(layout);
  if (cached) return cached;
  const widthPx = Math.ceil(
    layout.blocks.reduce((widest, block) => Math.max(widest, block.x + block.width), 1),
  );
  const shelfTops = [...new Set(layout.blocks.map((block) => block.y))];
  const shelfOfRow = new Int32Array(Math.ceil(layout.heightPx)).fill(-1);
  const blockOfColumn = new Int32Array(shelfTops.length * widthPx).fill(-1);
  let shelf = -1;
  let shelfY = -1;
  layout.blocks.forEach((block, index) => {
    if (block.y !== shelfY) [shelf, shelfY] = [shelf + 1, block.y];
    shelfOfRow.fill(shelf, block.y, block.y + block.height);
    const row = shelf * widthPx;
    blockOfColumn.fill(index, row + block.x, row + block.x + block.width);
  });
  const grid = { shelfOfRow, blockOfColumn, widthPx };
  hitGrids.set(layout, grid);
  return grid;
}

/** The block whose box column/shelf holds (x, y), or -1: index arithmetic, no search. */
function blockAt(layout: HeatmapLayout, x: number, y: number): number {
  if (x < 0 || y < 0) return -1;
  const grid = hitGridFor(layout);
  const column = Math.floor(x);
  const shelf = grid.shelfOfRow[Math.floor(y)] ?? -1;
  if (shelf < 0 || column >= grid.widthPx) return -1;
  return grid.blockOfColumn[shelf * grid.widthPx + column] ?? -1;
}

/**
 * The cell under a point, or -1. Finds the node's block in the hit grid (two array reads), then
 * does arithmetic inside it, so a pointer move costs the same over 10 nodes or 10,240.
 */
export function hitTest(layout: HeatmapLayout, x: number, y: number): number {
  const pitch = layout.pitchPx;
  const block = layout.blocks[blockAt(layout, x, y)];
  if (!block) return -1;
  if (x < block.x || x >= block.x + block.width || y < block.y || y >= block.y + block.height)
    return -1;
  const labelPx = layout.hasLabels ? LABEL_HEIGHT_PX : 0;
  const column = Math.floor((x - block.x) / pitch);
  const row = Math.floor((y - block.y - labelPx) / pitch);
  if (row < 0 || (x - block.x) % pitch >= layout.cellSizePx) return -1;
  if ((y - block.y - labelPx) % pitch >= layout.cellSizePx) return -1;
  const card = row * COLUMNS_PER_NODE + column;
  return card < block.cellCount ? block.firstCell + card : -1;
}
