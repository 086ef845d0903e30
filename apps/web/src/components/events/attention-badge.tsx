"use client";
// The shell's sign that something needs a look: unacknowledged warnings and errors, polled slowly.
// It renders nothing while all is well, so the sidebar does not shift when the count appears.
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { formatNumber } from "../../lib/format";
import { useTRPC } from "../../trpc/react";

export const ATTENTION_REFETCH_INTERVAL_MS = 5000;

export function AttentionBadge() {
  const { t, i18n } = useTranslation();
  const trpc = useTRPC();
  const attention = useQuery(
    trpc.events.attention.queryOptions(undefined, {
      refetchInterval: ATTENTION_REFETCH_INTERVAL_MS,
    }),
  );
  const count = attention.data?.count ?? 0;
  if (count === 0) return null;
  return (
    <span
      className="attention-badge"
      data-testid="events-attention"
      data-count={count}
      title={t("nav.eventsAttention", { count })}
      aria-label={t("nav.eventsAttention", { count })}
    >
      {formatNumber(count, i18n.language)}
    </span>
  );
}
