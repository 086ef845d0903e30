// Which window of a server-sorted table a page asks for (`replicas.page`, `nodes.page`; P9): the
// rows in view with a margin on each side, in steps, so scrolling a few rows asks nothing new and
// a window starts at the same rows whoever scrolled there. The first window is the top's.
import { TABLE_WINDOW_ROWS_MAX } from "@llmgw/api/schemas";

/** Rows a window starts on a multiple of, and keeps above the first row drawn. */
const WINDOW_STEP_ROWS = 50;
/** A window's usual size: a screenful of rows at 1440 × 900 is about 35, drawn with 24 more. */
const WINDOW_ROWS = 200;

export interface TableWindow {
  offset: number;
  limit: number;
}

/** The window a page opens with (and the one its opening preload asks for). */
export const FIRST_TABLE_WINDOW: TableWindow = { offset: 0, limit: WINDOW_ROWS };

/** The window holding rows `first` to `last` (those drawn) with a margin before and after. */
export function tableWindowFor(first: number, last: number): TableWindow {
  const offset = Math.max(
    0,
    Math.floor((first - WINDOW_STEP_ROWS) / WINDOW_STEP_ROWS) * WINDOW_STEP_ROWS,
  );
  const needed =
    Math.ceil((last + 1 - offset + WINDOW_STEP_ROWS) / WINDOW_STEP_ROWS) * WINDOW_STEP_ROWS;
  return { offset, limit: Math.min(TABLE_WINDOW_ROWS_MAX, Math.max(WINDOW_ROWS, needed)) };
}
