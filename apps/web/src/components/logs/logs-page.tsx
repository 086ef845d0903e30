"use client";
// One node's logs: the agent's own or any engine's on that node, chosen from the sources the node
// itself lists. Follow mode refetches every 5 s and keeps the newest line in view; the search
// highlights matches in what is shown, and Copy takes exactly the lines on screen.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { copyText } from "../../lib/clipboard";
import { formatDateTime } from "../../lib/format";
import { countMatches, splitMatches } from "../../lib/highlight";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { AGENT_SOURCE } from "./logs-options";
import { OpenInWindowButton } from "../ui/open-in-window-button";
import { LogsToolbar } from "./logs-toolbar";

const LOGS_FOLLOW_INTERVAL_MS = 5000;

function useSourceParam(): [string, (source: string) => void] {
  const router = useRouter();
  const pathname = usePathname();
  const source = useSearchParams().get("source") ?? AGENT_SOURCE;
  const setSource = (next: string) =>
    router.replace(
      next === AGENT_SOURCE ? pathname : `${pathname}?source=${encodeURIComponent(next)}`,
    );
  return [source, setSource];
}

function LogOutput({
  lines,
  search,
  isFollowing,
}: {
  lines: string[];
  search: string;
  isFollowing: boolean;
}) {
  const { t } = useTranslation("logs");
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (isFollowing && ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [lines, isFollowing]);
  if (lines.length === 0)
    return (
      <div className="panel muted" data-testid="logs-empty">
        {t("empty")}
      </div>
    );
  return (
    <div className="log-output" ref={ref} data-testid="logs-output" role="log">
      {lines.map((line, index) => (
        <div key={index} className="log-line" data-testid="log-line">
          {splitMatches(line, search).map((part, partIndex) =>
            part.isMatch ? <mark key={partIndex}>{part.text}</mark> : part.text,
          )}
        </div>
      ))}
    </div>
  );
}

export function LogsPage({ nodeId }: { nodeId: string }) {
  const { t, i18n } = useTranslation("logs");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const [source, setSource] = useSourceParam();
  const [lineCount, setLineCount] = useState<number>(200);
  const [isFollowing, setFollowing] = useState(true);
  const [search, setSearch] = useState("");
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  const node = useQuery(trpc.nodes.get.queryOptions({ id: nodeId }, { staleTime: 10_000 }));
  const replicas = useQuery(
    trpc.replicas.list.queryOptions({ node: nodeId }, { staleTime: 5_000 }),
  );
  const logs = useQuery(
    trpc.logs.get.queryOptions(
      { node: nodeId, source, lines: lineCount },
      {
        refetchInterval: isFollowing ? LOGS_FOLLOW_INTERVAL_MS : false,
        placeholderData: keepPreviousData,
        retry: false,
      },
    ),
  );
  const lines = useMemo(() => logs.data?.lines ?? [], [logs.data]);
  const matches = useMemo(() => countMatches(lines, search), [lines, search]);
  const nodeName = node.data?.name ?? nodeId;

  const copy = async () => {
    setCopyState((await copyText(lines.join("\n"))) ? "copied" : "failed");
    window.setTimeout(() => setCopyState("idle"), 2500);
  };

  return (
    <section className="page page-fill" data-testid="logs-page">
      <div className="toolbar">
        <h1>{t("title", { node: nodeName })}</h1>
        <div className="top-bar-spacer" />
        <OpenInWindowButton />
        <Link href={`/nodes/${encodeURIComponent(nodeId)}`}>{t("back")}</Link>
      </div>
      <LogsToolbar
        source={source}
        sources={logs.data?.sources ?? [source]}
        replicas={replicas.data ?? []}
        lineCount={lineCount}
        isFollowing={isFollowing}
        search={search}
        matches={matches}
        shown={lines.length}
        copyState={copyState}
        onSource={setSource}
        onLineCount={setLineCount}
        onFollow={setFollowing}
        onSearch={setSearch}
        onCopy={() => void copy()}
      />
      {logs.isError ? (
        <ErrorPanel
          error={logs.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void logs.refetch()}
        />
      ) : null}
      {logs.data ? (
        <>
          <LogOutput lines={lines} search={search} isFollowing={isFollowing} />
          <span className="muted" data-testid="logs-updated">
            {t("updated", {
              time: formatDateTime(new Date(logs.dataUpdatedAt).toISOString(), i18n.language),
            })}
          </span>
        </>
      ) : logs.isPending ? (
        <p className="muted">{tc("loading")}</p>
      ) : null}
    </section>
  );
}
