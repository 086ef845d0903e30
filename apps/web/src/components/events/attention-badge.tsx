"use client";
// The shell's sign that something needs a look: unacknowledged warnings and errors, polled slowly.
// It renders nothing while all is well, so the sidebar does not shift when the count appears.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { formatNumber } from "../../lib/format";
import { useTRPC } from "../../trpc/react";

export const ATTENTION_REFETCH_INTERVAL_MS = 5000;

/** The installed app's icon carries the same count (Badging API, where the browser has it). */
function useAppBadge(count: number): void {
  useEffect(() => {
    if (!("setAppBadge" in navigator)) return;
    const update = count > 0 ? navigator.setAppBadge(count) : navigator.clearAppBadge();
    // A browser may refuse (not installed, no permission): the sidebar's count still shows.
    update.catch(() => undefined);
  }, [count]);
}

export function AttentionBadge() {
  const { t, i18n } = useTranslation();
  const trpc = useTRPC();
  const attention = useQuery(
    trpc.events.attention.queryOptions(undefined, {
      refetchInterval: ATTENTION_REFETCH_INTERVAL_MS,
    }),
  );
  const count = attention.data?.count ?? 0;
  useAppBadge(count);
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
