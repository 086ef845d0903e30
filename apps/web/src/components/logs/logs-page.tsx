"use client";
// One node's logs: the agent's own or any engine's on that node, chosen from the sources the node
// itself lists. Follow mode refetches every 5 s and keeps the newest line in view; the search
// highlights matches in what is shown, and Copy takes exactly the lines on screen. A request id
// (`?request=`) shows the lines naming that request from every source on the node instead.
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
import { AGENT_SOURCE, LOG_LINES_DEFAULT, logsInput } from "./logs-options";
import { OpenInWindowButton } from "../ui/open-in-window-button";
import { LogsToolbar } from "./logs-toolbar";
import { RequestSearch } from "./request-search";

const LOGS_FOLLOW_INTERVAL_MS = 5000;

/** One URL parameter: its value (or `fallback`), and a setter that drops it at the fallback. */
function useParam(name: string, fallback: string): [string, (value: string) => void] {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const value = params.get(name) ?? fallback;
  const setValue = (next: string) => {
    const updated = new URLSearchParams(params.toString());
    if (next === fallback) updated.delete(name);
    else updated.set(name, next);
    const query = updated.toString();
    router.replace(query === "" ? pathname : `${pathname}?${query}`);
  };
  return [value, setValue];
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
  const searchParams = useSearchParams();
  const [source, setSource] = useParam("source", AGENT_SOURCE);
  const [requestId, setRequestId] = useParam("request", "");
  const [lineCount, setLineCount] = useState<number>(LOG_LINES_DEFAULT);
  const [isFollowing, setFollowing] = useState(true);
  const [search, setSearch] = useState("");
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  const node = useQuery(trpc.nodes.get.queryOptions({ id: nodeId }, { staleTime: 10_000 }));
  const replicas = useQuery(
    trpc.replicas.list.queryOptions({ node: nodeId }, { staleTime: 5_000 }),
  );
  const logs = useQuery(
    trpc.logs.get.queryOptions(logsInput(nodeId, searchParams, lineCount), {
      refetchInterval: isFollowing ? LOGS_FOLLOW_INTERVAL_MS : false,
      placeholderData: keepPreviousData,
      retry: false,
    }),
  );
  const lines = useMemo(() => {
    const data = logs.data;
    if (!data || requestId === "") return data?.lines ?? [];
    // Lines from several sources: each says which one wrote it.
    return data.lines.map((line, index) => `${data.records[index]?.source ?? "?"}  ${line}`);
  }, [logs.data, requestId]);
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
      <RequestSearch requestId={requestId} onRequestId={setRequestId} />
      {requestId !== "" && logs.data ? (
        <span className="muted" data-testid="logs-request-found" data-count={lines.length}>
          {t("request.found", {
            count: lines.length,
            request: requestId,
            searched: logs.data.linesSearched ?? 0,
          })}
        </span>
      ) : null}
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
