"use client";
// Adds an MCP server: name, address (fixed for llmgw:admin), description, rate, and a bearer
// token or another header kept sealed by the control plane.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";
import {
  CredentialFields,
  credentialInput,
  EMPTY_CREDENTIAL,
  type CredentialDraft,
} from "./credential-fields";
import { optionalNumber, type McpWrites } from "./use-mcp-writes";

const ADMIN_SERVER = "llmgw:admin";

export function AddServerForm({ writes, onDone }: { writes: McpWrites; onDone(): void }) {
  const { t } = useTranslation("mcp");
  const { t: tc } = useTranslation();
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [rate, setRate] = useState("");
  const [credential, setCredential] = useState<CredentialDraft>(EMPTY_CREDENTIAL);
  const isAdmin = name.trim() === ADMIN_SERVER;
  const submit = () =>
    writes.add.mutate(
      {
        name: name.trim(),
        url: isAdmin ? undefined : url.trim(),
        description: description.trim() || undefined,
        callsPerMinute: optionalNumber(rate) ?? undefined,
        credential: isAdmin ? undefined : credentialInput(credential),
      },
      { onSuccess: onDone },
    );
  return (
    <form
      className="panel mcp-form"
      data-testid="mcp-add-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h2>{t("add.title")}</h2>
      <div className="mcp-form-grid">
        <label className="field">
          <span>{t("add.name")}</span>
          <input
            value={name}
            placeholder={t("add.namePlaceholder")}
            onChange={(e) => setName(e.target.value)}
            data-testid="mcp-add-name"
          />
        </label>
        {isAdmin ? (
          <div className="field">
            <span>{t("add.url")}</span>
            <span className="muted" data-testid="mcp-add-url-fixed">
              {t("builtIn")}
            </span>
          </div>
        ) : (
          <label className="field">
            <span>{t("add.url")}</span>
            <input
              value={url}
              placeholder={t("add.urlPlaceholder")}
              onChange={(e) => setUrl(e.target.value)}
              data-testid="mcp-add-url"
            />
          </label>
        )}
        <label className="field">
          <span>{t("add.description")}</span>
          <input
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            data-testid="mcp-add-description"
          />
        </label>
        <label className="field">
          <span>{t("add.rate")}</span>
          <input
            inputMode="numeric"
            value={rate}
            placeholder={t("add.ratePlaceholder")}
            onChange={(e) => setRate(e.target.value)}
            data-testid="mcp-add-rate"
          />
        </label>
        {isAdmin ? (
          <p className="muted">{t("add.adminFixed")}</p>
        ) : (
          <CredentialFields
            draft={credential}
            onChange={setCredential}
            testPrefix="mcp-add"
            allowNone
          />
        )}
      </div>
      {writes.add.isError ? (
        <p className="form-error" role="alert" data-testid="mcp-add-error">
          {describeError(writes.add.error, tc)}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="control" onClick={onDone}>
          {t("add.cancel")}
        </button>
        <button
          type="submit"
          className="primary"
          disabled={writes.add.isPending || name.trim() === ""}
          data-testid="mcp-add-submit"
        >
          {t("add.submit")}
        </button>
      </div>
    </form>
  );
}
