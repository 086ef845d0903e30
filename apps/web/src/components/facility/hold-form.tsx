"use client";
// Holding a domain: which one (KIND=VALUE, filled in from its row) and whether its replicas move
// off too (drain, with surge). Kept apart from the request so a test renders it with a refusal.
import { facilityHoldInputSchema } from "@llmgw/api/schemas";
import type { z } from "zod";
import { useTranslation } from "react-i18next";
import { DialogForm } from "../ui/dialog-form";
import { FormField } from "../ui/form-field";

export interface HoldDraft {
  domain: string;
  drain: boolean;
}
export type HoldInput = z.input<typeof facilityHoldInputSchema>;

export function holdInput(draft: HoldDraft): HoldInput {
  return { domain: draft.domain.trim(), drain: draft.drain };
}

export interface HoldFormProps {
  draft: HoldDraft;
  onDraft(draft: HoldDraft): void;
  send(input: HoldInput): void;
  onClose(): void;
  error: unknown;
  isPending: boolean;
}

export function HoldForm({ draft, onDraft, send, onClose, error, isPending }: HoldFormProps) {
  const { t } = useTranslation("facility");
  return (
    <DialogForm
      testId="hold-dialog"
      className="dialog-confirm"
      title={t("hold.title")}
      onClose={onClose}
      intro={<p className="muted">{t("hold.hint")}</p>}
      form={{
        schema: facilityHoldInputSchema,
        readInput: () => holdInput(draft),
        onSubmit: send,
        error,
        errorTestId: "hold-error",
        errorClassName: "bad-text",
        actions: {
          submitLabel: t("hold.save"),
          submitTestId: "hold-save",
          isPending,
          cancelLabel: t("hold.cancel"),
          onCancel: onClose,
        },
      }}
    >
      <FormField label={t("hold.domain")} hint={t("hold.domainHint")}>
        <input
          className="mono"
          value={draft.domain}
          onChange={(event) => onDraft({ ...draft, domain: event.target.value })}
          placeholder={t("hold.placeholder")}
          data-testid="hold-domain"
        />
      </FormField>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={draft.drain}
          onChange={(event) => onDraft({ ...draft, drain: event.target.checked })}
          data-testid="hold-drain"
        />
        {t("hold.drain")}
      </label>
    </DialogForm>
  );
}
