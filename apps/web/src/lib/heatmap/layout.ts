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

/** The index of the last block at or before (x, y) in shelf order, or -1: two binary searches. */
function blockAt(blocks: readonly HeatmapBlock[], x: number, y: number): number {
  // Blocks run shelf by shelf (y ascending), left to right in a shelf (x ascending).
  let low = 0;
  let high = blocks.length - 1;
  let shelfEnd = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((blocks[middle]?.y ?? 0) <= y) {
      shelfEnd = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  if (shelfEnd < 0) return -1;
  const shelfY = blocks[shelfEnd]?.y ?? 0;
  let found = -1;
  low = 0;
  high = shelfEnd;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const block = blocks[middle];
    const isBefore = block !== undefined && (block.y < shelfY || block.x <= x);
    if (isBefore) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found >= 0 && blocks[found]?.y === shelfY ? found : -1;
}

/**
 * The cell under a point, or -1. Finds the node's block by binary search over the shelves (so a
 * pointer move over 10,240 nodes costs some 30 comparisons), then does arithmetic inside it.
 */
export function hitTest(layout: HeatmapLayout, x: number, y: number): number {
  const pitch = layout.pitchPx;
  const block = layout.blocks[blockAt(layout.blocks, x, y)];
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
