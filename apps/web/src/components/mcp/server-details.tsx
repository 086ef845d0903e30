"use client";
// One server opened under its row: test it and list its tools; grant, revoke, open a closed
// level; change its description, timeout, rate and address; replace its credential.
import type { McpServerView } from "@llmgw/api";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";
import {
  CredentialFields,
  credentialInput,
  EMPTY_CREDENTIAL,
  type CredentialDraft,
} from "./credential-fields";
import { FormField } from "../ui/form-field";
import { BuiltInAddress } from "./built-in-address";
import { optionalNumber, splitList, type McpWrites } from "./use-mcp-writes";

export function ServerDetails({ server, writes }: { server: McpServerView; writes: McpWrites }) {
  const { t } = useTranslation("mcp");
  const { t: tc } = useTranslation();
  const failed = [
    writes.grant,
    writes.revoke,
    writes.open,
    writes.update,
    writes.replaceCredential,
  ].find((m) => m.isError);
  return (
    <div className="mcp-details" data-testid="mcp-details" data-server-name={server.name}>
      {failed ? (
        <p className="form-error" role="alert" data-testid="mcp-action-error">
          {describeError(failed.error, tc)}
        </p>
      ) : null}
      <ToolsSection server={server} writes={writes} />
      <GrantsSection server={server} writes={writes} />
      <div className="mcp-form-grid">
        <EditSection server={server} writes={writes} />
        {server.isBuiltIn ? (
          <p className="muted">{t("details.noCredential")}</p>
        ) : (
          <CredentialSection server={server} writes={writes} />
        )}
      </div>
      <p className="muted">{t("details.changed", { user: server.createdBy })}</p>
    </div>
  );
}

function ToolsSection({ server, writes }: { server: McpServerView; writes: McpWrites }) {
  const { t } = useTranslation("mcp");
  const result = writes.test.variables?.name === server.name ? writes.test.data : undefined;
  return (
    <section>
      <h3>{t("details.tools")}</h3>
      <button
        type="button"
        className="control control-small"
        disabled={writes.test.isPending}
        onClick={() => writes.test.mutate({ name: server.name })}
        data-testid="mcp-test"
      >
        {t("details.test")}
      </button>
      {result && !result.ok ? (
        <p className="form-error" data-testid="mcp-test-error">
          {t("details.testFailed", { error: result.error ?? "" })}
        </p>
      ) : null}
      {result?.ok ? (
        <ul className="mcp-tools" data-testid="mcp-tools">
          {result.tools.map((tool) => (
            <li key={tool.name} data-testid="mcp-tool" data-tool-name={tool.name}>
              <span className="mono">{tool.name}</span>{" "}
              <span className="muted">{tool.description ?? ""}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function GrantsSection({ server, writes }: { server: McpServerView; writes: McpWrites }) {
  const { t } = useTranslation("mcp");
  const [subject, setSubject] = useState("");
  const [tools, setTools] = useState("");
  const target = (s: string) => ({ subject: s, server: server.name });
  return (
    <section>
      <h3>{t("details.grants")}</h3>
      {server.grants.length === 0 ? <p className="muted">{t("details.noGrants")}</p> : null}
      <ul className="mcp-grants">
        {server.grants.map((grant) => (
          <li
            key={grant.subject}
            data-testid="mcp-grant-row"
            data-subject={grant.subject}
            data-closed={grant.isClosed}
          >
            <span className="mono">{grant.subject}</span>{" "}
            {grant.isClosed ? (
              <span className="badge badge-model-parked">{t("details.closed")}</span>
            ) : (
              <span className="mono">{grant.tools.join(", ")}</span>
            )}{" "}
            {grant.isClosed ? (
              <button
                type="button"
                className="control control-small"
                onClick={() => writes.open.mutate(target(grant.subject))}
                data-testid="mcp-open"
              >
                {t("details.open")}
              </button>
            ) : (
              <button
                type="button"
                className="control control-small control-danger"
                onClick={() => writes.revoke.mutate(target(grant.subject))}
                data-testid="mcp-revoke"
              >
                {t("details.revokeAll")}
              </button>
            )}
          </li>
        ))}
      </ul>
      <form
        className="mcp-inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          writes.grant.mutate({ ...target(subject.trim()), tools: splitList(tools) });
        }}
      >
        <input
          value={subject}
          placeholder={t("details.subjectPlaceholder")}
          aria-label={t("details.subject")}
          onChange={(e) => setSubject(e.target.value)}
          data-testid="mcp-grant-subject"
        />
        <input
          value={tools}
          placeholder={t("details.toolsPlaceholder")}
          aria-label={t("details.toolPatterns")}
          onChange={(e) => setTools(e.target.value)}
          data-testid="mcp-grant-tools"
        />
        <button type="submit" className="control control-small" data-testid="mcp-grant-submit">
          {t("details.grant")}
        </button>
        <button
          type="button"
          className="control control-small control-danger"
          disabled={subject.trim() === "" || tools.trim() === ""}
          onClick={() =>
            writes.revoke.mutate({ ...target(subject.trim()), tools: splitList(tools) })
          }
          data-testid="mcp-revoke-tools"
        >
          {t("details.revoke")}
        </button>
      </form>
      <p className="muted">{t("details.grantHelp")}</p>
    </section>
  );
}

function EditSection({ server, writes }: { server: McpServerView; writes: McpWrites }) {
  const { t } = useTranslation("mcp");
  const [description, setDescription] = useState(server.description ?? "");
  const [timeout, setTimeoutText] = useState(server.timeoutMs?.toString() ?? "");
  const [rate, setRate] = useState(server.callsPerMinute?.toString() ?? "");
  const [url, setUrl] = useState(server.url);
  return (
    <form
      className="mcp-form-column"
      onSubmit={(event) => {
        event.preventDefault();
        writes.update.mutate({
          name: server.name,
          description,
          timeoutMs: optionalNumber(timeout),
          callsPerMinute: optionalNumber(rate),
          url: server.isBuiltIn ? undefined : url.trim(),
        });
      }}
    >
      <h3>{t("details.change")}</h3>
      {server.isBuiltIn ? (
        <BuiltInAddress testId="mcp-edit-url-fixed" />
      ) : (
        <FormField className="field" label={t("add.url")}>
          <input value={url} onChange={(e) => setUrl(e.target.value)} data-testid="mcp-edit-url" />
        </FormField>
      )}
      <FormField className="field" label={t("add.description")}>
        <input
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          data-testid="mcp-edit-description"
        />
      </FormField>
      <FormField className="field" label={t("details.timeout")}>
        <input
          inputMode="numeric"
          value={timeout}
          onChange={(e) => setTimeoutText(e.target.value)}
          data-testid="mcp-edit-timeout"
        />
      </FormField>
      <FormField className="field" label={t("add.rate")}>
        <input
          inputMode="numeric"
          value={rate}
          onChange={(e) => setRate(e.target.value)}
          data-testid="mcp-edit-rate"
        />
      </FormField>
      <p className="muted">{t("details.emptyClears")}</p>
      <button type="submit" className="control control-small" data-testid="mcp-edit-submit">
        {t("details.save")}
      </button>
    </form>
  );
}

function CredentialSection({ server, writes }: { server: McpServerView; writes: McpWrites }) {
  const { t } = useTranslation("mcp");
  const [draft, setDraft] = useState<CredentialDraft>(EMPTY_CREDENTIAL);
  const credential = credentialInput(draft);
  return (
    <form
      className="mcp-form-column"
      onSubmit={(event) => {
        event.preventDefault();
        if (!credential) return;
        writes.replaceCredential.mutate(
          { name: server.name, credential },
          { onSuccess: () => setDraft(EMPTY_CREDENTIAL) },
        );
      }}
    >
      <h3>{t("details.replaceCredential")}</h3>
      <CredentialFields
        draft={draft}
        onChange={setDraft}
        testPrefix="mcp-credential"
        allowNone={false}
      />
      <button
        type="submit"
        className="control control-small"
        disabled={!credential}
        data-testid="mcp-credential-submit"
      >
        {t("details.replace")}
      </button>
    </form>
  );
}
