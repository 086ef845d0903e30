"use client";
// Adds an MCP server: name, address (fixed for llmgw:admin), description, rate, and a bearer
// token or another header kept sealed by the control plane.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "../ui/form-field";
import { SubmitForm } from "../ui/submit-form";
import {
  CredentialFields,
  credentialInput,
  EMPTY_CREDENTIAL,
  type CredentialDraft,
} from "./credential-fields";
import { BuiltInAddress } from "./built-in-address";
import { optionalNumber, type McpWrites } from "./use-mcp-writes";

const ADMIN_SERVER = "llmgw:admin";

export function AddServerForm({ writes, onDone }: { writes: McpWrites; onDone(): void }) {
  const { t } = useTranslation("mcp");
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [rate, setRate] = useState("");
  const [credential, setCredential] = useState<CredentialDraft>(EMPTY_CREDENTIAL);
  const isAdmin = name.trim() === ADMIN_SERVER;
  return (
    <SubmitForm
      className="panel mcp-form"
      testId="mcp-add-form"
      readInput={() => ({
        name: name.trim(),
        url: isAdmin ? undefined : url.trim(),
        description: description.trim() || undefined,
        callsPerMinute: optionalNumber(rate) ?? undefined,
        credential: isAdmin ? undefined : credentialInput(credential),
      })}
      onSubmit={(input) => writes.add.mutate(input, { onSuccess: onDone })}
      error={writes.add.error}
      errorTestId="mcp-add-error"
      actions={{
        submitLabel: t("add.submit"),
        submitTestId: "mcp-add-submit",
        isPending: writes.add.isPending,
        isSubmitDisabled: name.trim() === "",
        cancelLabel: t("add.cancel"),
        onCancel: onDone,
      }}
    >
      <h2>{t("add.title")}</h2>
      <div className="mcp-form-grid">
        <FormField className="field" label={t("add.name")}>
          <input
            value={name}
            placeholder={t("add.namePlaceholder")}
            onChange={(e) => setName(e.target.value)}
            data-testid="mcp-add-name"
          />
        </FormField>
        {isAdmin ? (
          <BuiltInAddress testId="mcp-add-url-fixed" />
        ) : (
          <FormField className="field" label={t("add.url")}>
            <input
              value={url}
              placeholder={t("add.urlPlaceholder")}
              onChange={(e) => setUrl(e.target.value)}
              data-testid="mcp-add-url"
            />
          </FormField>
        )}
        <FormField className="field" label={t("add.description")}>
          <input
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            data-testid="mcp-add-description"
          />
        </FormField>
        <FormField className="field" label={t("add.rate")}>
          <input
            inputMode="numeric"
            value={rate}
            placeholder={t("add.ratePlaceholder")}
            onChange={(e) => setRate(e.target.value)}
            data-testid="mcp-add-rate"
          />
        </FormField>
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
    </SubmitForm>
  );
}
