"use client";
// One row per replica. Times are relative (they age on their own clock) with the exact moment in
// the title; a replica fetching weights shows how far the download got. A replica spanning nodes
// names its node count and lists its shards beneath it: rank, node, cards and phase.
import type { ReplicaPhase, ReplicaView } from "@llmgw/api";
import Link from "next/link";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { parseReplicaMessage, parseWeightsNote } from "../../lib/replica-message";
import type { SortState } from "../../lib/sort";
import type { ReplicaSortKey } from "../../lib/table-order";
import { useNow } from "../../hooks/use-now";
import type { RowNavigation } from "../../hooks/use-row-navigation";
import { ABSENT, formatNumber, formatPercent, upperForDisplay } from "../../lib/format";
import type { ColumnChoice } from "../ui/column-chooser";
import {
  DataGrid,
  DetailRow,
  type GridColumn,
  type RowAttributes,
  type RowWindow,
} from "../ui/data-grid";
import { openInWindowItem, RowMenu } from "../ui/row-menu";
import { momentColumn } from "../ui/moment-column";

function PhaseBadge({ phase }: { phase: ReplicaPhase }) {
  const { t, i18n } = useTranslation("replicas");
  return (
    <span className={`badge badge-phase-${phase}`} data-testid="replica-phase" data-phase={phase}>
      {upperForDisplay(t(`phase.${phase}`), i18n.language)}
    </span>
  );
}

function Cards({ gpuIndexes, lang }: { gpuIndexes: number[]; lang: string }) {
  const { t } = useTranslation("replicas");
  if (gpuIndexes.length === 0) return <span className="muted">{t("cpu")}</span>;
  const indexes = gpuIndexes.map((index) => formatNumber(index, lang)).join(", ");
  return <span>{t("gpuIndexes", { count: gpuIndexes.length, indexes })}</span>;
}

/** The agent's sentence in the page's language, or as written when it is not one we know. */
function replicaNoteText(message: string, t: TFunction<"replicas">): string {
  const note = parseReplicaMessage(message);
  if (!note) return message;
  const weights = note.values.weights;
  const weightsNote = weights === undefined ? null : parseWeightsNote(weights);
  const values: Record<string, string> = { ...note.values };
  // The agent's own words are the default, should a key be missing.
  if (weightsNote && weights !== undefined)
    values.weights = t(`note.${weightsNote.key}`, { ...weightsNote.values, defaultValue: weights });
  const text = t(`note.${note.key}`, { ...values, defaultValue: message });
  return note.values.standIn
    ? t("note.standIn", { note: text, engine: note.values.standIn })
    : text;
}

function PhaseCell({ replica, lang }: { replica: ReplicaView; lang: string }) {
  const { t } = useTranslation("replicas");
  const progress =
    replica.phase === "fetching" && replica.fetchProgress != null
      ? t("fetchProgress", { percent: formatPercent(replica.fetchProgress * 100, lang) })
      : null;
  // Agents often report the phase itself as the message; saying it twice adds nothing.
  const raw = replica.message.trim().toLowerCase() === replica.phase ? "" : replica.message;
  const message = raw ? replicaNoteText(raw, t) : "";
  return (
    <span className="state-cell" title={message || undefined}>
      <PhaseBadge phase={replica.phase} />
      {progress ? <span className="muted">{progress}</span> : null}
      {message ? <span className="truncate state-note muted">{message}</span> : null}
    </span>
  );
}

function useReplicaColumns(
  onOpenInWindow: (id: string) => void,
): GridColumn<ReplicaView, ReplicaSortKey>[] {
  const { t, i18n } = useTranslation("replicas");
  const { t: tc } = useTranslation();
  const lang = i18n.language;
  const nowMs = useNow();
  return [
    {
      id: "id",
      header: t("columns.id"),
      isFixed: true,
      className: "mono",
      render: (replica) => (
        <span className="truncate replica-id" title={replica.id}>
          {replica.id}
        </span>
      ),
    },
    {
      id: "model",
      header: t("columns.model"),
      sortKey: "model",
      render: (replica) => (
        <Link href={`/replicas?model=${encodeURIComponent(replica.model)}`}>{replica.model}</Link>
      ),
    },
    {
      id: "node",
      header: t("columns.node"),
      sortKey: "node",
      render: (replica) =>
        replica.shards.length > 0 ? (
          <span>{t("shards.nodes", { count: replica.shards.length })}</span>
        ) : (
          <Link
            href={`/nodes/${encodeURIComponent(replica.nodeId)}`}
            data-testid="replica-node-link"
          >
            {replica.nodeName}
          </Link>
        ),
    },
    {
      id: "cards",
      header: t("columns.cards"),
      render: (replica) =>
        replica.shards.length > 0 ? (
          <span className="muted">{t("shards.perShard")}</span>
        ) : (
          <Cards gpuIndexes={replica.gpuIndexes} lang={lang} />
        ),
    },
    {
      id: "engine",
      header: t("columns.engine"),
      sortKey: "engine",
      className: "mono",
      render: (replica) => replica.engine,
    },
    {
      id: "phase",
      header: t("columns.phase"),
      sortKey: "phase",
      render: (replica) => <PhaseCell replica={replica} lang={lang} />,
    },
    {
      id: "endpoint",
      header: t("columns.endpoint"),
      className: "mono",
      render: (replica) => replica.endpoint ?? ABSENT,
    },
    momentColumn<ReplicaView, ReplicaSortKey>({
      id: "phaseChanged",
      sortKey: "phaseChanged",
      header: t("columns.phaseChanged"),
      at: (replica) => replica.phaseChangedAt,
      nowMs,
      lang,
    }),
    momentColumn<ReplicaView, ReplicaSortKey>({
      id: "lastUsed",
      sortKey: "lastUsed",
      header: t("columns.lastUsed"),
      at: (replica) => replica.lastUsedAt,
      empty: <span className="muted">{t("never")}</span>,
      nowMs,
      lang,
    }),
    {
      id: "menu",
      header: t("columns.menu"),
      isFixed: true,
      render: (replica) => (
        <RowMenu
          label={t("rowMenu", { id: replica.id })}
          items={[openInWindowItem(tc("openLogsInNewWindow"), () => onOpenInWindow(replica.id))]}
        />
      ),
    },
  ];
}

function replicaRowProps(replica: ReplicaView): RowAttributes {
  return {
    "data-testid": "replica-row",
    "data-replica-id": replica.id,
    "data-model-name": replica.model,
    "data-phase": replica.phase,
  };
}

/** The shards of a replica spanning nodes, by rank: only rank 0, the leader, serves the API. */
function ShardsRow({ replica, columnCount }: { replica: ReplicaView; columnCount: number }) {
  const { t, i18n } = useTranslation("replicas");
  return (
    <DetailRow
      columnCount={columnCount}
      rowProps={{ "data-testid": "replica-shards", "data-replica-id": replica.id }}
    >
      <div className="reasons">
        <div className="muted">{t("shards.title", { count: replica.shards.length })}</div>
        <ul>
          {replica.shards.map((shard) => (
            <li key={shard.rank} data-testid="replica-shard" data-rank={shard.rank}>
              <span className="state-cell">
                <span>
                  {t(shard.rank === 0 ? "shards.leader" : "shards.worker", { rank: shard.rank })}
                </span>
                <Link href={`/nodes/${encodeURIComponent(shard.nodeId)}`}>{shard.nodeName}</Link>
                <Cards gpuIndexes={shard.gpuIndexes} lang={i18n.language} />
                <PhaseBadge phase={shard.phase} />
              </span>
            </li>
          ))}
        </ul>
      </div>
    </DetailRow>
  );
}

/** Where a replica opens: its engine's log on its node (the leader's, for one spanning nodes). */
export function replicaLogsPath(replica: Pick<ReplicaView, "id" | "nodeId">): string {
  return `/nodes/${encodeURIComponent(replica.nodeId)}/logs?source=${encodeURIComponent(replica.id)}`;
}

interface ReplicasTableProps {
  /** The rows of the window the server answered (sorted there). */
  replicas: ReplicaView[];
  /** Where they fall among all the table's rows. */
  window: RowWindow;
  sorting: { sort: SortState<ReplicaSortKey>; onSort(key: ReplicaSortKey): void };
  navigation: RowNavigation;
  columnChoice: ColumnChoice;
}

/** Thousands of replicas draw only the rows in view (P9); a row is about 27 px tall. */
const REPLICA_ROW_HEIGHT_PX = 27;

export function ReplicasTable({
  replicas,
  window: rowWindow,
  sorting,
  navigation,
  columnChoice,
}: ReplicasTableProps) {
  const { t } = useTranslation("replicas");
  return (
    <DataGrid
      columns={useReplicaColumns(navigation.onOpenInWindow)}
      rows={replicas}
      rowKey={(replica) => replica.id}
      rowProps={replicaRowProps}
      renderAfterRow={(replica, columnCount) =>
        replica.shards.length > 0 ? <ShardsRow replica={replica} columnCount={columnCount} /> : null
      }
      testId="replicas-table"
      sorting={{ ...sorting, titleFor: (column) => t("sortBy", { column }) }}
      selection={{
        selectedKey: navigation.selectedId,
        onSelect: navigation.onSelect,
        onOpen: navigation.onOpen,
      }}
      columnChoice={columnChoice}
      virtualize={{ rowHeightPx: REPLICA_ROW_HEIGHT_PX, window: rowWindow }}
    />
  );
}
