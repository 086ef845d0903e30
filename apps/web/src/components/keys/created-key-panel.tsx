"use client";
// The only time a key's plaintext is on screen: the key, a copy button, and a plain warning that
// it will not be shown again.
import type { CreatedKey } from "@llmgw/api";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { copyText } from "../../lib/clipboard";

export function CreatedKeyPanel({ created, onDone }: { created: CreatedKey; onDone(): void }) {
  const { t } = useTranslation("keys");
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <div className="created-key" data-testid="created-key">
      <p className="panel panel-warn" role="alert" data-testid="created-key-warning">
        {t("created.warning")}
      </p>
      <div className="created-key-row">
        <code className="command created-key-value" data-testid="created-key-value">
          {created.key}
        </code>
        <button
          type="button"
          className="control"
          data-testid="created-key-copy"
          onClick={() =>
            void copyText(created.key).then((ok) => setCopyState(ok ? "copied" : "failed"))
          }
        >
          {t("created.copy")}
        </button>
      </div>
      {copyState !== "idle" ? (
        <p
          className={copyState === "copied" ? "status status-live" : "warning"}
          data-testid="created-key-copied"
          data-state={copyState}
        >
          {copyState === "copied" ? t("created.copied") : t("created.copyFailed")}
        </p>
      ) : null}
      <p className="muted">{t("created.usage")}</p>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onDone} data-testid="created-key-done">
          {t("created.done")}
        </button>
      </div>
    </div>
  );
}
