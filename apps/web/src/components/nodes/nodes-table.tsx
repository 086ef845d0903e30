"use client";
// The dense fleet table. Columns are data: each names its sort key (if sortable) and how a node
// renders in it, so adding a column is one entry here plus one translation.
import type { NodeSummary } from "@llmgw/api";
import { formatLocation } from "@llmgw/domain";
import type { TFunction } from "i18next";
import Link from "next/link";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNow } from "../../hooks/use-now";
import type { RowNavigation } from "../../hooks/use-row-navigation";
import {
  ABSENT,
  formatBytes,
  formatBytesPair,
  formatDateTime,
  formatNumber,
  formatPercent,
  formatRelativeTime,
} from "../../lib/format";
import { labelPairs, nodeWarnings, type SortKey, type SortState } from "../../lib/nodes";
import { DataGrid, type GridColumn, type RowAttributes, type RowWindow } from "../ui/data-grid";
import type { ColumnChoice } from "../ui/column-chooser";
import { openInWindowItem, RowMenu, type RowMenuItem } from "../ui/row-menu";
import { LabelChips, SimulatedBadge, StateBadge } from "./node-badges";

interface CellContext {
  lang: string;
  nowMs: number;
  t: TFunction<"nodes">;
  menuItemsFor(node: NodeSummary): RowMenuItem[];
}

interface Column {
  id: string;
  sortKey?: SortKey;
  isNumeric?: boolean;
  isFixed?: boolean;
  render(node: NodeSummary, context: CellContext): ReactNode;
}

function GpuSummary({ node, context }: { node: NodeSummary; context: CellContext }) {
  if (node.gpuGroups.length === 0) return <span className="muted">{context.t("cpuOnly")}</span>;
  const text = node.gpuGroups
    .map((group) => context.t("gpuGroup", { count: group.count, name: group.name }))
    .join(", ");
  return (
    <span className="truncate gpu-summary" title={text}>
      {text}
    </span>
  );
}

function WarningsCell({ node, context }: { node: NodeSummary; context: CellContext }) {
  const warnings = nodeWarnings(node);
  if (warnings.length === 0) return null;
  return (
    <span
      className="warning node-warnings"
      data-testid="node-warnings"
      data-warnings={warnings.map((w) => w.kind).join(" ")}
    >
      <span aria-hidden="true">{"⚠ "}</span>
      {warnings
        .map((warning) =>
          warning.kind === "pcie"
            ? context.t("warnings.pcie", { count: warning.value })
            : context.t("warnings.diskLow", {
                percent: formatPercent(warning.value, context.lang),
              }),
        )
        .join(" · ")}
    </span>
  );
}

/** A cordoned or draining node says so beside its state: nothing new is placed on it. */
function CordonBadge({
  cordon,
  context,
}: {
  cordon: "cordoned" | "draining";
  context: CellContext;
}) {
  return (
    <span className="badge" data-testid="node-cordon" data-cordon={cordon}>
      {context.t(`cordon.${cordon}`)}
    </span>
  );
}

const COLUMNS: Column[] = [
  {
    id: "name",
    sortKey: "name",
    isFixed: true,
    render: (node) => (
      <span className="name-cell">
        <Link href={`/nodes/${encodeURIComponent(node.id)}`} data-testid="node-link">
          {node.name}
        </Link>
      </span>
    ),
  },
  {
    id: "state",
    sortKey: "state",
    // A simulated node says so beside its state, rather than in a column of its own: the table
    // then fits 1440 px without scrolling sideways.
    render: (node, context) => (
      <span className="badge-row">
        <StateBadge state={node.state} />
        {node.simulated ? <SimulatedBadge /> : null}
        {node.cordon ? <CordonBadge cordon={node.cordon} context={context} /> : null}
      </span>
    ),
  },
  {
    id: "location",
    // Widest first, as `llmgw ctl nodes` prints it: the same words in both places.
    render: (node) => <span className="mono">{formatLocation(node.labels)}</span>,
  },
  {
    id: "gpus",
    sortKey: "gpus",
    render: (node, context) => <GpuSummary node={node} context={context} />,
  },
  {
    id: "gpuMemory",
    sortKey: "gpuMemory",
    isNumeric: true,
    render: (node, { lang }) =>
      node.gpuGroups.length ? formatBytes(node.gpuMemoryBytesTotal, lang) : ABSENT,
  },
  {
    id: "cpuCores",
    sortKey: "cpuCores",
    isNumeric: true,
    render: (node, { lang }) => formatNumber(node.cpuCores, lang),
  },
  {
    id: "memory",
    sortKey: "memory",
    isNumeric: true,
    render: (node, { lang }) => formatBytes(node.memoryBytesTotal, lang),
  },
  {
    id: "disk",
    sortKey: "disk",
    isNumeric: true,
    render: (node, { lang }) => formatBytesPair(node.disk.bytesFree, node.disk.bytesTotal, lang),
  },
  { id: "labels", render: (node) => <LabelChips pairs={labelPairs(node.labels)} /> },
  {
    id: "agentVersion",
    sortKey: "agentVersion",
    render: (node) => <span className="mono">{node.agentVersion}</span>,
  },
  {
    id: "warnings",
    sortKey: "warnings",
    render: (node, context) => <WarningsCell node={node} context={context} />,
  },
  {
    id: "lastSeen",
    sortKey: "lastSeen",
    render: (node, { lang, nowMs }) => (
      <span title={formatDateTime(node.lastSeenAt, lang)}>
        {formatRelativeTime(node.lastSeenAt, nowMs, lang)}
      </span>
    ),
  },
  {
    id: "menu",
    isFixed: true,
    render: (node, context) => (
      <RowMenu
        label={context.t("rowMenu", { name: node.name })}
        items={context.menuItemsFor(node)}
      />
    ),
  },
];

interface NodesTableProps {
  /** The rows of the window the server answered (filtered and sorted there). */
  nodes: NodeSummary[];
  /** Where they fall among all the table's rows. */
  window: RowWindow;
  sort: SortState;
  onSort(key: SortKey): void;
  navigation: RowNavigation;
  columnChoice: ColumnChoice;
  /** Shown under the table when the filter left no rows. */
  empty: ReactNode;
}

/** A fleet of thousands of nodes draws only the rows in view (P9); a row is about 27 px tall. */
const NODE_ROW_HEIGHT_PX = 27;

function nodeRowProps(node: NodeSummary): RowAttributes {
  return { "data-testid": "node-row", "data-node-id": node.id, "data-node-name": node.name };
}

export function NodesTable({
  nodes,
  window: rowWindow,
  sort,
  onSort,
  navigation,
  columnChoice,
  empty,
}: NodesTableProps) {
  const { t, i18n } = useTranslation("nodes");
  const { t: tc } = useTranslation();
  const nowMs = useNow();
  const menuItemsFor = (node: NodeSummary): RowMenuItem[] => [
    openInWindowItem(tc("openInNewWindow"), () => navigation.onOpenInWindow(node.id)),
  ];
  const context: CellContext = { lang: i18n.language, nowMs, t, menuItemsFor };
  const columns = COLUMNS.map((column): GridColumn<NodeSummary, SortKey> => ({
    ...column,
    header: t(`columns.${column.id as "name"}`),
    render: (node) => column.render(node, context),
  }));
  return (
    <DataGrid
      columns={columns}
      rows={nodes}
      rowKey={(node) => node.id}
      rowProps={nodeRowProps}
      testId="nodes-table"
      sorting={{ sort, onSort, titleFor: (column) => t("sortBy", { column }) }}
      selection={{
        selectedKey: navigation.selectedId,
        onSelect: navigation.onSelect,
        onOpen: navigation.onOpen,
      }}
      columnChoice={columnChoice}
      empty={empty}
      virtualize={{ rowHeightPx: NODE_ROW_HEIGHT_PX, window: rowWindow }}
    />
  );
}
