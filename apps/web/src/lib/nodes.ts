// Pure helpers for the nodes views: how the table filters and sorts the node summaries
// (`nodes.page`), how a card's link is judged. Kept out of the components so they can be
// unit-tested without a DOM.
import type { GpuView } from "@llmgw/api";
import type { NodeSortKey, SortState as GenericSortState } from "@llmgw/api/schemas";

// The filter, the order and the warnings are the API's: the server filters and sorts the window
// of the table the page asks for (`nodes.page`) as the page would.
export {
  isNodeSortKey as isSortKey,
  labelPairs,
  NODE_SORT_DEFAULT,
  nodeWarnings,
} from "@llmgw/api/schemas";

/**
 * A link is degraded when, as seated, it carries less than the card could: fewer lanes in use, or
 * a slot of an older generation. The server judges it (never by the generation a link idles at).
 */
export function isPcieDegraded(gpu: GpuView): boolean {
  return gpu.pcieLink?.isBelowCapability === true;
}

export type SortKey = NodeSortKey;

export type SortState = GenericSortState<SortKey>;

/**
 * The operating system as the node reported it, without the "(simulated)" older agents append:
 * the page says simulated with its own badge, in the reader's language.
 */
export function osLabel(os: string): string {
  return os.replace(/\s*\(simulated\)\s*$/i, "");
}
