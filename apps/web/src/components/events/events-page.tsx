"use client";
// What happened in the fleet, newest first: filters in the URL (so a link can open one node's or
// one model's events), older pages on demand, and "mark all as seen" for operators, which clears
// the shell's attention badge.
import type { EventKind, EventSeverity, EventSubjectType } from "@llmgw/api";
import { EVENT_KINDS, EVENT_SEVERITIES, EVENT_SUBJECT_TYPES } from "@llmgw/api/schemas";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useCanWrite } from "../../hooks/use-can-write";
import { EVENTS_PAGE_SIZE } from "../../lib/page-prefetch";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { ATTENTION_REFETCH_INTERVAL_MS } from "./attention-badge";
import { EventsTable } from "./events-table";

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | undefined {
  return value !== null && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : undefined;
}

function useFilters() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = {
    severity: oneOf<EventSeverity>(params.get("severity"), EVENT_SEVERITIES),
    kind: oneOf<EventKind>(params.get("kind"), EVENT_KINDS),
    subjectType: oneOf<EventSubjectType>(params.get("subjectType"), EVENT_SUBJECT_TYPES),
    subjectId: params.get("subjectId") ?? undefined,
  };
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(key, value);
    else next.delete(key);
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname);
  };
  return { filters, set, clear: () => router.replace(pathname) };
}

function FilterSelect<T extends string>(props: {
  label: string;
  value: T | undefined;
  options: readonly T[];
  optionLabel(option: T): string;
  testId: string;
  onChange(value: string): void;
}) {
  const { t } = useTranslation("events");
  return (
    <label className="inline-field">
      <span className="muted">{props.label}</span>
      <select
        value={props.value ?? ""}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      >
        <option value="">{t("filters.all")}</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {props.optionLabel(option)}
          </option>
        ))}
      </select>
    </label>
  );
}

function useAcknowledge() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const attention = useQuery(
    trpc.events.attention.queryOptions(undefined, {
      refetchInterval: ATTENTION_REFETCH_INTERVAL_MS,
    }),
  );
  const acknowledge = useMutation(
    trpc.events.acknowledge.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.events.pathKey() }),
    }),
  );
  return { attention: attention.data, acknowledge };
}

export function EventsPage() {
  const { t } = useTranslation("events");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const canWrite = useCanWrite();
  const { filters, set, clear } = useFilters();
  const { attention, acknowledge } = useAcknowledge();
  const input = {
    limit: EVENTS_PAGE_SIZE,
    ...(filters.severity ? { severities: [filters.severity] } : {}),
    ...(filters.kind ? { kinds: [filters.kind] } : {}),
    ...(filters.subjectType ? { subjectType: filters.subjectType } : {}),
    ...(filters.subjectId ? { subjectId: filters.subjectId } : {}),
  };
  const eventsQuery = useInfiniteQuery(
    trpc.events.list.infiniteQueryOptions(input, {
      getNextPageParam: (page) => page.nextCursor ?? undefined,
      refetchInterval: ATTENTION_REFETCH_INTERVAL_MS,
    }),
  );
  const events = useMemo(
    () => eventsQuery.data?.pages.flatMap((page) => page.events),
    [eventsQuery.data],
  );
  const hasFilters = Object.values(filters).some(Boolean);
  const attentionCount = attention?.count ?? 0;

  return (
    <section className="page">
      <div className="toolbar toolbar-wrap">
        <h1>{t("title")}</h1>
        {attentionCount > 0 ? (
          <span className="warning" data-testid="events-attention-count">
            {t("attention", { count: attentionCount })}
          </span>
        ) : null}
        {attentionCount > 0 && canWrite ? (
          <button
            type="button"
            className="control"
            disabled={acknowledge.isPending}
            onClick={() => acknowledge.mutate({ upToId: attention?.newestId ?? 1 })}
            data-testid="events-acknowledge"
          >
            {t("acknowledge")}
          </button>
        ) : null}
        <div className="top-bar-spacer" />
        <span className="status status-live">{t("refreshed")}</span>
      </div>
      <div className="toolbar toolbar-wrap">
        <FilterSelect
          label={t("filters.severity")}
          value={filters.severity}
          options={EVENT_SEVERITIES}
          optionLabel={(s) => t(`severity.${s}`)}
          testId="events-filter-severity"
          onChange={(v) => set("severity", v)}
        />
        <FilterSelect
          label={t("filters.kind")}
          value={filters.kind}
          options={EVENT_KINDS}
          optionLabel={(k) => t(`kind.${k}`)}
          testId="events-filter-kind"
          onChange={(v) => set("kind", v)}
        />
        <FilterSelect
          label={t("filters.subject")}
          value={filters.subjectType}
          options={EVENT_SUBJECT_TYPES}
          optionLabel={(s) => t(`subjectType.${s}`)}
          testId="events-filter-subject"
          onChange={(v) => set("subjectType", v)}
        />
        {filters.subjectId ? <span className="chip">{filters.subjectId}</span> : null}
        {hasFilters ? (
          <button
            type="button"
            className="control"
            onClick={clear}
            data-testid="events-filter-clear"
          >
            {t("filters.clear")}
          </button>
        ) : null}
      </div>
      {eventsQuery.isError && !events ? (
        <ErrorPanel
          error={eventsQuery.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void eventsQuery.refetch()}
        />
      ) : null}
      {eventsQuery.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {events && events.length === 0 ? (
        <div className="panel muted" data-testid="events-empty">
          {t("empty")}
        </div>
      ) : null}
      {events && events.length > 0 ? (
        <div className="table-scroll">
          <EventsTable events={events} />
        </div>
      ) : null}
      {eventsQuery.hasNextPage ? (
        <button
          type="button"
          className="control load-more"
          disabled={eventsQuery.isFetchingNextPage}
          onClick={() => void eventsQuery.fetchNextPage()}
          data-testid="events-load-more"
        >
          {t("loadMore")}
        </button>
      ) : null}
    </section>
  );
}
