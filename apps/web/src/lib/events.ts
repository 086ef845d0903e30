// Turns an event's structured params into what its sentence needs in the operator's language:
// numbers formatted per locale, milliseconds as seconds, an empty card list as "CPU". The sentence
// itself comes from the locale files by kind, never from the server.
import type { EventKind, EventSeverity, EventSubjectType, EventView } from "@llmgw/api";
import { formatNumber } from "./format";

// The console may only import types from @llmgw/api, so the lists the filters offer are repeated
// here; the checks below fail `tsc` when the API gains a kind the console does not list.
export const EVENT_KINDS = [
  "node.unreachable",
  "node.lost",
  "node.back",
  "replica.placed",
  "replica.started",
  "replica.failed",
  "replica.rebuilt",
  "model.parked",
  "model.retried",
  "model.unplaceable",
  "model.placeable",
  "catalog.model-added",
  "catalog.model-removed",
  "catalog.fallbacks-changed",
  "key.created",
  "key.revoked",
] as const satisfies readonly EventKind[];
export const EVENT_SEVERITIES = [
  "info",
  "warning",
  "error",
] as const satisfies readonly EventSeverity[];
export const EVENT_SUBJECT_TYPES = [
  "node",
  "model",
  "replica",
  "key",
] as const satisfies readonly EventSubjectType[];

type Unlisted<All, Listed> = Exclude<All, Listed> extends never ? true : never;
export const EVERY_KIND_LISTED: Unlisted<EventKind, (typeof EVENT_KINDS)[number]> = true;
export const EVERY_SEVERITY_LISTED: Unlisted<EventSeverity, (typeof EVENT_SEVERITIES)[number]> =
  true;
export const EVERY_SUBJECT_LISTED: Unlisted<
  EventSubjectType,
  (typeof EVENT_SUBJECT_TYPES)[number]
> = true;

/** How a key is shown without its secret: the visible prefix only. */
export function keyLabel(prefix: string): string {
  return `llmgw_${prefix}_…`;
}

export interface EventWords {
  cpuOnly: string;
  cardList(cards: string, count: number): string;
  noFallbacks: string;
}

export function eventMessageParams(
  event: Pick<EventView, "kind" | "params">,
  lang: string,
  words: EventWords,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(event.params)) {
    out[key] =
      typeof value === "number" ? formatNumber(value, lang) : value === null ? "" : String(value);
  }
  const { lostAfterMs, cards, fallbacks } = event.params;
  if (typeof lostAfterMs === "number") out.seconds = formatNumber(lostAfterMs / 1000, lang, 0);
  if (typeof cards === "string")
    out.cards =
      cards === ""
        ? words.cpuOnly
        : words.cardList(cards.split(",").join(", "), cards.split(",").length);
  if (event.kind === "catalog.fallbacks-changed")
    out.fallbacks =
      typeof fallbacks === "string" && fallbacks !== ""
        ? fallbacks.split(",").join(", ")
        : words.noFallbacks;
  return out;
}

/** Where a row links: the node page, the model's replicas, or the keys page. */
export function eventHref(event: Pick<EventView, "subjectType" | "subjectId" | "params">): string {
  const model = typeof event.params.model === "string" ? event.params.model : null;
  switch (event.subjectType) {
    case "node":
      return `/nodes/${encodeURIComponent(event.subjectId)}`;
    case "model":
      return `/replicas?model=${encodeURIComponent(event.subjectId)}`;
    case "replica":
      return model ? `/replicas?model=${encodeURIComponent(model)}` : "/replicas";
    case "key":
      return "/keys";
  }
}
