"use client";
// The controls above a log: which source, how many lines, follow, search and copy.
import type { ReplicaView } from "@llmgw/api";
import { useTranslation } from "react-i18next";
import { InlineSelect } from "../ui/inline-select";
import { AGENT_SOURCE, LOG_LINE_CHOICES } from "./logs-options";

interface LogsToolbarProps {
  source: string;
  sources: string[];
  replicas: ReplicaView[];
  lineCount: number;
  isFollowing: boolean;
  search: string;
  matches: number;
  shown: number;
  copyState: "idle" | "copied" | "failed";
  onSource(source: string): void;
  onLineCount(lines: number): void;
  onFollow(isFollowing: boolean): void;
  onSearch(search: string): void;
  onCopy(): void;
}

function SourceSelect({
  source,
  sources,
  replicas,
  onSource,
}: Pick<LogsToolbarProps, "source" | "sources" | "replicas" | "onSource">) {
  const { t } = useTranslation("logs");
  const modelOf = new Map(replicas.map((replica) => [replica.id, replica.model]));
  const options = sources.includes(source) ? sources : [source, ...sources];
  return (
    <InlineSelect label={t("source")} value={source} onChange={onSource} testId="logs-source">
      {options.map((option) => (
        <option key={option} value={option}>
          {option === AGENT_SOURCE
            ? t("agentSource")
            : t("replicaSource", { model: modelOf.get(option) ?? "?", id: option })}
        </option>
      ))}
    </InlineSelect>
  );
}

export function LogsToolbar(props: LogsToolbarProps) {
  const { t } = useTranslation("logs");
  return (
    <div className="toolbar toolbar-wrap">
      <SourceSelect {...props} />
      <InlineSelect
        label={t("lines")}
        value={String(props.lineCount)}
        onChange={(value) => props.onLineCount(Number(value))}
        testId="logs-lines"
      >
        {LOG_LINE_CHOICES.map((count) => (
          <option key={count} value={count}>
            {t("linesOption", { count })}
          </option>
        ))}
      </InlineSelect>
      <label className="inline-field" title={t("followHint")}>
        <input
          type="checkbox"
          checked={props.isFollowing}
          onChange={(event) => props.onFollow(event.target.checked)}
          data-testid="logs-follow"
        />
        <span>{t("follow")}</span>
      </label>
      <input
        type="search"
        className="filter"
        value={props.search}
        onChange={(event) => props.onSearch(event.target.value)}
        placeholder={t("search")}
        aria-label={t("search")}
        data-testid="logs-search"
        data-shortcut-filter=""
      />
      {props.search ? (
        <span className="muted" data-testid="logs-match-count" data-count={props.matches}>
          {t("matches", { count: props.matches })}
        </span>
      ) : null}
      <div className="top-bar-spacer" />
      <span className="muted" data-testid="logs-shown">
        {t("shown", { count: props.shown })}
      </span>
      <button type="button" className="control" onClick={props.onCopy} data-testid="logs-copy">
        {t("copy")}
      </button>
      {props.copyState !== "idle" ? (
        <span
          className={props.copyState === "copied" ? "status status-live" : "warning"}
          data-testid="logs-copied"
          data-state={props.copyState}
        >
          {props.copyState === "copied" ? t("copied", { count: props.shown }) : t("copyFailed")}
        </span>
      ) : null}
    </div>
  );
}
