"use client";
// One row per event: when, how bad, what kind, what it is about (a link) and the sentence in the
// operator's language, built from the kind and its params.
import type { EventView } from "@llmgw/api";
import Link from "next/link";
import { useTranslation } from "react-i18next";
import { useNow } from "../../hooks/use-now";
import { eventHref, eventMessageParams, keyLabel } from "../../lib/events";
import { formatDateTime, formatRelativeTime, upperForDisplay } from "../../lib/format";

const COLUMN_IDS = ["time", "severity", "kind", "subject", "message"] as const;

function subjectLabel(event: EventView): string {
  const { node, model } = event.params;
  if (event.subjectType === "node" && typeof node === "string") return node;
  if (event.subjectType === "replica" && typeof model === "string")
    return `${model} · ${event.subjectId}`;
  if (event.subjectType === "key" && typeof event.params.prefix === "string")
    return keyLabel(event.params.prefix);
  return event.subjectId;
}

function EventRow({ event, nowMs, lang }: { event: EventView; nowMs: number; lang: string }) {
  const { t } = useTranslation("events");
  const params = eventMessageParams(event, lang, {
    cpuOnly: t("cpuOnly"),
    cardList: (cards, count) => t("cardList", { cards, count }),
    noFallbacks: t("noFallbacks"),
  });
  // The params differ per kind and come from the server, so the typed t() cannot check them here;
  // en and tr are kept to the same placeholders by the locale test.
  const translateMessage = t as unknown as (key: string, options: Record<string, string>) => string;
  const needsAttention = !event.isAcknowledged && event.severity !== "info";
  return (
    <tr
      data-testid="event-row"
      data-event-id={event.id}
      data-kind={event.kind}
      data-severity={event.severity}
      data-subject-id={event.subjectId}
      className={needsAttention ? "needs-attention" : undefined}
    >
      <td title={formatDateTime(event.at, lang)}>{formatRelativeTime(event.at, nowMs, lang)}</td>
      <td>
        <span className={`badge badge-severity-${event.severity}`} data-testid="event-severity">
          {upperForDisplay(t(`severity.${event.severity}`), lang)}
        </span>
      </td>
      <td data-testid="event-kind">{t(`kind.${event.kind}`)}</td>
      <td>
        <span className="muted">{t(`subjectType.${event.subjectType}`)}</span>{" "}
        <Link href={eventHref(event)} data-testid="event-subject-link">
          {subjectLabel(event)}
        </Link>
      </td>
      <td className="event-message" data-testid="event-message">
        {translateMessage(`message.${event.kind}`, params)}
      </td>
    </tr>
  );
}

export function EventsTable({ events }: { events: EventView[] }) {
  const { t, i18n } = useTranslation("events");
  const nowMs = useNow();
  return (
    <table className="grid" data-testid="events-table">
      <thead>
        <tr>
          {COLUMN_IDS.map((id) => (
            <th key={id}>{t(`columns.${id}`)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {events.map((event) => (
          <EventRow key={event.id} event={event} nowMs={nowMs} lang={i18n.language} />
        ))}
      </tbody>
    </table>
  );
}
