"use client";
// Who a model belongs to: an org, team or project of the tree, whose quota its replicas count
// against. Changing it restarts nothing; the control plane checks the owner exists and refuses with
// a sentence that appears under the field. An empty field clears the owner.
import type { ModelView } from "@llmgw/api";
import { setModelOwnerInputSchema } from "@llmgw/api/schemas";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";
import { DialogForm } from "../ui/dialog-form";

interface OwnerDialogProps {
  model: ModelView;
  onClose(): void;
}

export function OwnerDialog({ model, onClose }: OwnerDialogProps) {
  const { t } = useTranslation("models");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState(model.owner ?? "");
  const units = useQuery(trpc.org.list.queryOptions());
  const save = useMutation(
    trpc.models.setOwner.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.quotas.pathKey() });
        onClose();
      },
    }),
  );
  const owners = (units.data ?? []).map((unit) => `${unit.kind}:${unit.name}`);
  return (
    <DialogForm
      testId="owner-dialog"
      className="dialog-confirm"
      title={t("owner.title", { name: model.name })}
      onClose={onClose}
      intro={<p className="muted">{t("owner.hint")}</p>}
      form={{
        schema: setModelOwnerInputSchema,
        readInput: () => ({ model: model.name, owner: text.trim() === "" ? null : text.trim() }),
        onSubmit: (input) => save.mutate(input),
        error: save.error,
        errorTestId: "owner-error",
        errorClassName: "bad-text",
        actions: {
          submitLabel: t("owner.save"),
          submitTestId: "owner-save",
          isPending: save.isPending,
          cancelLabel: t("owner.cancel"),
          onCancel: onClose,
        },
      }}
    >
      <input
        className="fallbacks-input"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t("owner.placeholder")}
        aria-label={t("owner.label")}
        data-testid="owner-input"
        list="owner-units"
        autoFocus
      />
      <datalist id="owner-units">
        {owners.map((owner) => (
          <option key={owner} value={owner} />
        ))}
      </datalist>
      <p className="muted">
        {owners.length ? t("owner.available", { owners: owners.join(", ") }) : t("owner.noUnits")}
      </p>
    </DialogForm>
  );
}
