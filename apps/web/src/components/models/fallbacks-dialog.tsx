"use client";
// Where requests for a model go when the cluster has no room for it: an ordered list of other
// catalog models, edited as comma-separated names. The control plane checks the names and refuses
// with a sentence that appears under the field.
import type { ModelView } from "@llmgw/api";
import { setFallbacksInputSchema } from "@llmgw/api/schemas";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { commaList } from "../../lib/forms";
import { useTRPC } from "../../trpc/react";
import { DialogForm } from "../ui/dialog-form";

interface FallbacksDialogProps {
  model: ModelView;
  catalogNames: readonly string[];
  onClose(): void;
}

export function FallbacksDialog({ model, catalogNames, onClose }: FallbacksDialogProps) {
  const { t } = useTranslation("models");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState(model.fallbacks.join(", "));
  const save = useMutation(
    trpc.models.setFallbacks.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
        onClose();
      },
    }),
  );
  const others = catalogNames.filter((name) => name !== model.name);
  return (
    <DialogForm
      testId="fallbacks-dialog"
      className="dialog-confirm"
      title={t("fallbacks.title", { name: model.name })}
      onClose={onClose}
      intro={<p className="muted">{t("fallbacks.hint")}</p>}
      form={{
        schema: setFallbacksInputSchema,
        readInput: () => ({ name: model.name, fallbacks: commaList(text) }),
        onSubmit: (input) => save.mutate(input),
        error: save.error,
        errorTestId: "fallbacks-error",
        errorClassName: "bad-text",
        actions: {
          submitLabel: t("fallbacks.save"),
          submitTestId: "fallbacks-save",
          isPending: save.isPending,
          cancelLabel: t("fallbacks.cancel"),
          onCancel: onClose,
        },
      }}
    >
      <input
        className="fallbacks-input"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t("fallbacks.placeholder")}
        aria-label={t("fallbacks.label")}
        data-testid="fallbacks-input"
        autoFocus
      />
      <p className="muted">
        {others.length
          ? t("fallbacks.available", { names: others.join(", ") })
          : t("fallbacks.noOthers")}
      </p>
    </DialogForm>
  );
}
