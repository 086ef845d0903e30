"use client";
// Setting a scope's quota (admins): the scope, what it is guaranteed and, optionally, the most it
// may hold, written as `gpus=H100-80G:16,cores=64,memory=512GiB`. The control plane reads the
// amounts and refuses with a sentence naming the part it could not read, shown under the fields.
import type { ScopeQuotaView } from "@llmgw/api";
import { setQuotaInputSchema } from "@llmgw/api/schemas";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";
import { DialogForm } from "../ui/dialog-form";

interface QuotaDialogProps {
  /** The scope being edited; null to set a new one. */
  editing: ScopeQuotaView | null;
  onClose(): void;
}

function Field(props: {
  label: string;
  hint: string;
  value: string;
  testId: string;
  list?: string;
  onChange(value: string): void;
}) {
  return (
    <label className="quota-field">
      <span>{props.label}</span>
      <input
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        placeholder={props.hint}
        list={props.list}
        data-testid={props.testId}
      />
    </label>
  );
}

export function QuotaDialog({ editing, onClose }: QuotaDialogProps) {
  const { t } = useTranslation("quotas");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [scope, setScope] = useState(editing?.scope ?? "");
  const [guarantee, setGuarantee] = useState(editing?.quota?.guaranteeText ?? "");
  const [limit, setLimit] = useState(editing?.quota?.limitText ?? "");
  const units = useQuery(trpc.org.list.queryOptions());
  const save = useMutation(
    trpc.quotas.set.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.quotas.pathKey() });
        onClose();
      },
    }),
  );
  const scopes = (units.data ?? []).map((unit) => `${unit.kind}:${unit.name}`);
  return (
    <DialogForm
      testId="quota-dialog"
      className="dialog-confirm"
      title={editing ? t("form.editTitle", { scope: editing.scope }) : t("form.title")}
      onClose={onClose}
      intro={<p className="muted">{t("form.hint")}</p>}
      form={{
        schema: setQuotaInputSchema,
        readInput: () => ({
          scope: scope.trim(),
          guarantee: guarantee.trim(),
          limit: limit.trim() === "" ? null : limit.trim(),
        }),
        onSubmit: (input) => save.mutate(input),
        error: save.error,
        errorTestId: "quota-error",
        errorClassName: "bad-text",
        actions: {
          submitLabel: t("form.save"),
          submitTestId: "quota-save",
          isPending: save.isPending,
          cancelLabel: t("form.cancel"),
          onCancel: onClose,
        },
      }}
    >
      <Field
        label={t("form.scope")}
        hint={t("form.scopeHint")}
        value={scope}
        testId="quota-scope"
        list="quota-scopes"
        onChange={setScope}
      />
      <datalist id="quota-scopes">
        {scopes.map((entry) => (
          <option key={entry} value={entry} />
        ))}
      </datalist>
      <Field
        label={t("form.guarantee")}
        hint={t("form.amountsHint")}
        value={guarantee}
        testId="quota-guarantee"
        onChange={setGuarantee}
      />
      <Field
        label={t("form.limit")}
        hint={t("form.limitHint")}
        value={limit}
        testId="quota-limit"
        onChange={setLimit}
      />
    </DialogForm>
  );
}
