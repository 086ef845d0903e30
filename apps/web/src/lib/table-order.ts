// How the models and replicas tables order and filter their rows: the columns each sorts by, and
// the models table's text filter. Both are kept on the person's desk (see use-desk-state.ts).
import type { ModelView } from "@llmgw/api";
import { definitionEngines } from "./models";
import { sortRowsBy, type SortState } from "./sort";

const MODEL_SORT_VALUES = {
  name: (model: ModelView) => model.name,
  state: (model: ModelView) => model.state,
  ready: (model: ModelView) => model.replicasReady,
  owner: (model: ModelView) => model.owner ?? "",
  updated: (model: ModelView) => Date.parse(model.updatedAt),
} satisfies Record<string, (model: ModelView) => string | number>;

export type ModelSortKey = keyof typeof MODEL_SORT_VALUES;
export const MODEL_SORT_DEFAULT: SortState<ModelSortKey> = { key: "name", direction: "asc" };

export function isModelSortKey(value: unknown): value is ModelSortKey {
  return typeof value === "string" && Object.hasOwn(MODEL_SORT_VALUES, value);
}

export function sortModelsBy(
  models: readonly ModelView[],
  sort: SortState<ModelSortKey>,
): ModelView[] {
  return sortRowsBy(models, sort, MODEL_SORT_VALUES, [(model) => model.name]);
}

/** Every word of the filter is in the model's name, state, owner or engines (any case). */
export function matchesModelFilter(model: ModelView, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [model.name, model.state, model.owner ?? "", ...definitionEngines(model.definition)]
    .join(" ")
    .toLowerCase();
  return words.every((word) => text.includes(word));
}

// The replicas table's order is the API's: the server sorts the window the page asks for
// (`replicas.page`) as the page would.
export { isReplicaSortKey, REPLICA_SORT_DEFAULT, type ReplicaSortKey } from "@llmgw/api/schemas";
