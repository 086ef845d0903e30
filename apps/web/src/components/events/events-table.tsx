"use client";
// One row per event: when, how bad, what kind, what it is about (a link) and the sentence in the
// operator's language, built from the kind and its params.
import type { EventView } from "@llmgw/api";
import Link from "next/link";
import { useTranslation } from "react-i18next";
import { useNow } from "../../hooks/use-now";
import { eventHref, eventMessageParams, keyLabel } from "../../lib/events";
import { upperForDisplay } from "../../lib/format";
import { DataGrid, type GridColumn, type RowAttributes } from "../ui/data-grid";
import { momentColumn } from "../ui/moment-column";

function subjectLabel(event: EventView): string {
  const { node, model } = event.params;
  if (event.subjectType === "node" && typeof node === "string") return node;
  if (event.subjectType === "replica" && typeof model === "string")
    return `${model} · ${event.subjectId}`;
  if (event.subjectType === "key" && typeof event.params.prefix === "string")
    return keyLabel(event.params.prefix);
  return event.subjectId;
}

function useEventColumns(): GridColumn<EventView>[] {
  const { t, i18n } = useTranslation("events");
  const lang = i18n.language;
  const nowMs = useNow();
  // The params differ per kind and come from the server, so the typed t() cannot check them here;
  // en and tr are kept to the same placeholders by the locale test.
  const translateMessage = t as unknown as (key: string, options: Record<string, string>) => string;
  const messageOf = (event: EventView) =>
    translateMessage(
      `message.${event.kind}`,
      eventMessageParams(event, lang, {
        cpuOnly: t("cpuOnly"),
        cardList: (cards, count) => t("cardList", { cards, count }),
        noFallbacks: t("noFallbacks"),
      }),
    );
  return [
    momentColumn({ id: "time", header: t("columns.time"), at: (event) => event.at, nowMs, lang }),
    {
      id: "severity",
      header: t("columns.severity"),
      render: (event) => (
        <span className={`badge badge-severity-${event.severity}`} data-testid="event-severity">
          {upperForDisplay(t(`severity.${event.severity}`), lang)}
        </span>
      ),
    },
    {
      id: "kind",
      header: t("columns.kind"),
      cellProps: () => ({ "data-testid": "event-kind" }),
      render: (event) => t(`kind.${event.kind}`),
    },
    {
      id: "subject",
      header: t("columns.subject"),
      render: (event) => (
        <>
          <span className="muted">{t(`subjectType.${event.subjectType}`)}</span>{" "}
          <Link href={eventHref(event)} data-testid="event-subject-link">
            {subjectLabel(event)}
          </Link>
        </>
      ),
    },
    {
      id: "message",
      header: t("columns.message"),
      className: "event-message",
      cellProps: () => ({ "data-testid": "event-message" }),
      render: messageOf,
    },
  ];
}

function eventRowProps(event: EventView): RowAttributes {
  const needsAttention = !event.isAcknowledged && event.severity !== "info";
  return {
    "data-testid": "event-row",
    "data-event-id": event.id,
    "data-kind": event.kind,
    "data-severity": event.severity,
    "data-subject-id": event.subjectId,
    className: needsAttention ? "needs-attention" : undefined,
  };
}

export function EventsTable({ events }: { events: EventView[] }) {
  return (
    <DataGrid
      columns={useEventColumns()}
      rows={events}
      rowKey={(event) => String(event.id)}
      rowProps={eventRowProps}
      testId="events-table"
    />
  );
}
