// Turns an event's structured params into what its sentence needs in the operator's language:
// numbers formatted per locale, milliseconds as seconds, an empty card list as "CPU". The sentence
// itself comes from the locale files by kind, never from the server.
import type { EventView } from "@llmgw/api";
import { formatDateTime, formatNumber } from "./format";

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
  const { lostAfterMs, cards, fallbacks, expiresAt } = event.params;
  if (typeof lostAfterMs === "number") out.seconds = formatNumber(lostAfterMs / 1000, lang, 0);
  if (typeof expiresAt === "string") out.expiresAt = formatDateTime(expiresAt, lang);
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
    case "release":
      return "/events?subjectType=release";
    case "domain":
      return "/nodes";
  }
}
