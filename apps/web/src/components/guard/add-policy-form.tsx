"use client";
// Adds a guard policy, or replaces the one of that name, as `llmgw ctl guard policy add` does: its
// name, whom it covers (`*`, owners, `key:ID`), the texts it reads, what it looks for, the judge
// model (none: rules only), what happens when the judge fails, and the judge's budget. Checked with
// the control plane's own schema; kept apart from the request so a test renders it with a refusal.
import { guardPolicyInputSchema } from "@llmgw/api/schemas";
import {
  GUARD_BUDGET_MS_DEFAULT,
  GUARD_CHECKS,
  GUARD_STAGES,
  type GuardCheck,
  type GuardPolicy,
  type GuardStage,
} from "@llmgw/domain";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "../ui/form-field";
import { SubmitForm } from "../ui/submit-form";

export interface PolicyDraft {
  name: string;
  /** Whom it covers, as typed: separated by commas or spaces. */
  appliesTo: string;
  stages: GuardStage[];
  checks: GuardCheck[];
  /** Empty: rules only. */
  judgeModel: string;
  fail: "closed" | "open";
  budgetMs: string;
}

export const EMPTY_POLICY_DRAFT: PolicyDraft = {
  name: "",
  appliesTo: "",
  stages: [],
  checks: [],
  judgeModel: "",
  fail: "closed",
  budgetMs: String(GUARD_BUDGET_MS_DEFAULT),
};

export function policyInput(draft: PolicyDraft): GuardPolicy {
  const judge = draft.judgeModel.trim();
  return {
    name: draft.name.trim(),
    appliesTo: draft.appliesTo.split(/[\s,]+/).filter((subject) => subject !== ""),
    // In the order the control plane lists them, whatever order they were ticked in.
    stages: GUARD_STAGES.filter((stage) => draft.stages.includes(stage)),
    checks: GUARD_CHECKS.filter((check) => draft.checks.includes(check)),
    judgeModel: judge === "" ? null : judge,
    fail: draft.fail,
    budgetMs: Number(draft.budgetMs.trim()),
  };
}

export interface AddPolicyFormProps {
  send(input: GuardPolicy): void;
  onClose(): void;
  error: unknown;
  isPending: boolean;
}

export function AddPolicyForm({ send, onClose, error, isPending }: AddPolicyFormProps) {
  const { t } = useTranslation("guard");
  const [draft, setDraft] = useState<PolicyDraft>(EMPTY_POLICY_DRAFT);
  const text =
    (field: "name" | "appliesTo" | "judgeModel" | "budgetMs") =>
    (event: { target: { value: string } }) =>
      setDraft((previous) => ({ ...previous, [field]: event.target.value }));
  const toggle = <K extends "stages" | "checks">(field: K, value: PolicyDraft[K][number]) =>
    setDraft((previous) => {
      const list = previous[field] as string[];
      const next = list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
      return { ...previous, [field]: next };
    });
  return (
    <SubmitForm
      className="panel"
      testId="guard-add-form"
      schema={guardPolicyInputSchema}
      readInput={() => policyInput(draft)}
      onSubmit={send}
      error={error}
      errorTestId="guard-add-error"
      actions={{
        submitLabel: t("add.submit"),
        submitTestId: "guard-add-submit",
        isPending,
        cancelLabel: t("add.cancel"),
        onCancel: onClose,
      }}
    >
      <h2>{t("add.title")}</h2>
      <p className="muted">{t("add.replaces")}</p>
      <FormField label={t("add.name")} hint={t("add.nameHint")}>
        <input value={draft.name} onChange={text("name")} data-testid="guard-add-name" />
      </FormField>
      <FormField label={t("add.appliesTo")} hint={t("add.appliesToHint")}>
        <input
          value={draft.appliesTo}
          placeholder={t("add.appliesToPlaceholder")}
          onChange={text("appliesTo")}
          data-testid="guard-add-applies-to"
        />
      </FormField>
      <fieldset className="notify-kinds">
        <legend>{t("add.stages")}</legend>
        {GUARD_STAGES.map((stage) => (
          <label className="checkbox" key={stage}>
            <input
              type="checkbox"
              checked={draft.stages.includes(stage)}
              onChange={() => toggle("stages", stage)}
              data-testid={`guard-add-stage-${stage}`}
            />
            {t(`stage.${stage}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="notify-kinds">
        <legend>{t("add.checks")}</legend>
        {GUARD_CHECKS.map((check) => (
          <label className="checkbox" key={check}>
            <input
              type="checkbox"
              checked={draft.checks.includes(check)}
              onChange={() => toggle("checks", check)}
              data-testid={`guard-add-check-${check}`}
            />
            {t(`check.${check}`)}
          </label>
        ))}
      </fieldset>
      <FormField label={t("add.judge")} hint={t("add.judgeHint")}>
        <input
          value={draft.judgeModel}
          onChange={text("judgeModel")}
          data-testid="guard-add-judge"
        />
      </FormField>
      <FormField label={t("add.fail")} hint={t("add.failHint")}>
        <select
          value={draft.fail}
          onChange={(event) =>
            setDraft((previous) => ({
              ...previous,
              fail: event.target.value === "open" ? "open" : "closed",
            }))
          }
          data-testid="guard-add-fail"
        >
          <option value="closed">{t("add.failClosed")}</option>
          <option value="open">{t("add.failOpen")}</option>
        </select>
      </FormField>
      <FormField label={t("add.budget")} hint={t("add.budgetHint")}>
        <input
          inputMode="numeric"
          value={draft.budgetMs}
          onChange={text("budgetMs")}
          data-testid="guard-add-budget"
        />
      </FormField>
    </SubmitForm>
  );
}
