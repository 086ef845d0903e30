"use client";
// Every facility domain some node names, and every hold, as `llmgw ctl facility` lists them: its
// nodes, cards, the power they drew at their last heartbeats, and its hold, with Hold and Release
// for admins.
import type { FacilityDomainView, FacilityView } from "@llmgw/api";
import { useTranslation } from "react-i18next";
import { ABSENT, formatNumber } from "../../lib/format";
import { DataGrid, type GridColumn } from "../ui/data-grid";

/** The listed domains, then the holds on domains no node names now (nothing else to show there). */
export function facilityRows(view: FacilityView): FacilityDomainView[] {
  const named = new Set(view.domains.map((domain) => domain.domain));
  const orphans = view.holds
    .filter((hold) => !named.has(hold.domain))
    .map((hold): FacilityDomainView => {
      const [kind = "", value = ""] = hold.domain.split("=");
      return { domain: hold.domain, kind, value, nodes: [], cards: 0, powerWatts: null, hold };
    });
  return [...view.domains, ...orphans];
}

export interface FacilityTableProps {
  view: FacilityView;
  isAdmin: boolean;
  isBusy: boolean;
  onHold(domain: string): void;
  onRelease(domain: string): void;
}

/** Hold on a free row, Release on a held one; off for anyone not an admin, saying why. */
function RowAction({
  row,
  isAdmin,
  isBusy,
  onHold,
  onRelease,
}: FacilityTableProps & { row: FacilityDomainView }) {
  const { t } = useTranslation("facility");
  return (
    <button
      type="button"
      className="control control-small"
      disabled={!isAdmin || isBusy}
      title={isAdmin ? undefined : t("adminOnly")}
      onClick={() => (row.hold ? onRelease(row.domain) : onHold(row.domain))}
      data-testid={row.hold ? "facility-release" : "facility-hold-open"}
    >
      {t(row.hold ? "release" : "holdAction")}
    </button>
  );
}

export function FacilityTable(props: FacilityTableProps) {
  const { t, i18n } = useTranslation("facility");
  const lang = i18n.language;
  const columns: GridColumn<FacilityDomainView>[] = [
    {
      id: "domain",
      header: t("columns.domain"),
      render: (row) => <span className="mono">{row.domain}</span>,
    },
    { id: "nodes", header: t("columns.nodes"), render: (row) => row.nodes.join(", ") || ABSENT },
    {
      id: "cards",
      header: t("columns.cards"),
      isNumeric: true,
      render: (row) => formatNumber(row.cards, lang),
    },
    {
      id: "power",
      header: t("columns.power"),
      isNumeric: true,
      render: (row) =>
        row.powerWatts === null
          ? ABSENT
          : t("watts", { watts: formatNumber(row.powerWatts, lang) }),
    },
    {
      id: "hold",
      header: t("columns.hold"),
      render: (row) =>
        row.hold ? (
          <span className="badge" data-testid="facility-hold" data-draining={row.hold.isDraining}>
            {t(row.hold.isDraining ? "heldDraining" : "held", { who: row.hold.heldBy })}
          </span>
        ) : (
          ABSENT
        ),
    },
    {
      id: "actions",
      header: t("columns.actions"),
      render: (row) => <RowAction row={row} {...props} />,
    },
  ];
  return (
    <DataGrid
      columns={columns}
      rows={facilityRows(props.view)}
      rowKey={(row) => row.domain}
      rowProps={(row) => ({ "data-testid": "facility-row", "data-domain": row.domain })}
      testId="facility-table"
    />
  );
}
