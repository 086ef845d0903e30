// What the replicas and nodes tables ask the server for (`replicas.page`, `nodes.page`; P9): the
// sort and filter the person left on their desk and the window in view. The page, its prefetch
// and its opening preload build the input here, so all three ask with the very same URL.
import {
  isNodeSortKey,
  isReplicaSortKey,
  NODE_SORT_DEFAULT,
  REPLICA_SORT_DEFAULT,
  type NodeSortKey,
  type NodesPageInput,
  type ReplicaSortKey,
  type ReplicasPageInput,
} from "@llmgw/api/schemas";
import { readDesk, type DeskStore } from "./desk/desk-storage";
import { isSortStateOf, type SortState } from "./sort";
import { FIRST_TABLE_WINDOW, type TableWindow } from "./table-window";

/** Where the tables keep their sort and filter on the desk (see use-desk-state.ts). */
export const REPLICAS_SORT_DESK = "table.replicas.sort";
export const NODES_SORT_DESK = "table.nodes.sort";
export const NODES_FILTER_DESK = "table.nodes.filter";

export const isReplicasSort = isSortStateOf(isReplicaSortKey);
export const isNodesSort = isSortStateOf(isNodeSortKey);

function isString(value: unknown): value is string {
  return typeof value === "string";
}

/** The replicas table's window: the model in the URL (`?model=`), its sort, the rows in view. */
export function replicasPageInput(
  search: URLSearchParams,
  sort: SortState<ReplicaSortKey>,
  range: TableWindow,
): ReplicasPageInput {
  const model = search.get("model") ?? "";
  return {
    ...(model ? { model } : {}),
    sort: { key: sort.key, direction: sort.direction },
    offset: range.offset,
    limit: range.limit,
  };
}

/** The nodes table's window: its filter as typed, its sort, the rows in view. */
export function nodesPageInput(
  filter: string,
  sort: SortState<NodeSortKey>,
  range: TableWindow,
): NodesPageInput {
  return {
    filter,
    sort: { key: sort.key, direction: sort.direction },
    offset: range.offset,
    limit: range.limit,
  };
}

/** Whose desk the opening queries read: the last person signed in here (null: the defaults). */
export interface DeskOf {
  lastUserId: string | null;
  store?: DeskStore;
}

/** The replicas table's first window as the page will open it (the desk's sort, the top rows). */
export function openingReplicasInput(search: URLSearchParams, desk?: DeskOf): ReplicasPageInput {
  const sort = readDesk(
    REPLICAS_SORT_DESK,
    isReplicasSort,
    REPLICA_SORT_DEFAULT,
    desk?.store,
    desk ? desk.lastUserId : undefined,
  );
  return replicasPageInput(search, sort, FIRST_TABLE_WINDOW);
}

/** The nodes table's first window as the page will open it (the desk's filter and sort). */
export function openingNodesInput(desk?: DeskOf): NodesPageInput {
  const userId = desk ? desk.lastUserId : undefined;
  const filter = readDesk(NODES_FILTER_DESK, isString, "", desk?.store, userId);
  const sort = readDesk(NODES_SORT_DESK, isNodesSort, NODE_SORT_DEFAULT, desk?.store, userId);
  return nodesPageInput(filter, sort, FIRST_TABLE_WINDOW);
}
