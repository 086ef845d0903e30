"use client";
// Finds one request's lines on the node: its id (the X-Request-Id a client got back, or the one a
// failed request reported) searched through every line the agent and each engine keep. The id lives
// in the URL, so a link can open a node's log on one request.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

interface RequestSearchProps {
  requestId: string;
  onRequestId(requestId: string): void;
}

export function RequestSearch({ requestId, onRequestId }: RequestSearchProps) {
  const { t } = useTranslation("logs");
  const [draft, setDraft] = useState(requestId);
  useEffect(() => setDraft(requestId), [requestId]);
  return (
    <form
      className="inline-field"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onRequestId(draft.trim());
      }}
    >
      <input
        type="search"
        className="filter"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        placeholder={t("request.placeholder")}
        aria-label={t("request.label")}
        title={t("request.hint")}
        data-testid="logs-request"
      />
      <button type="submit" className="control" data-testid="logs-request-find">
        {t("request.find")}
      </button>
      {requestId ? (
        <button
          type="button"
          className="control"
          onClick={() => onRequestId("")}
          data-testid="logs-request-clear"
        >
          {t("request.clear")}
        </button>
      ) : null}
    </form>
  );
}
