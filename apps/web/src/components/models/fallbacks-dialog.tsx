"use client";
// Where requests for a model go when the cluster has no room for it: an ordered list of other
// catalog models, edited as comma-separated names. The control plane checks the names and refuses
// with a sentence that appears under the field.
import type { ModelView } from "@llmgw/api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useEscape } from "../../hooks/use-escape";
import { describeError } from "../../lib/errors";
import { commaList } from "../../lib/forms";
import { useTRPC } from "../../trpc/react";

interface FallbacksDialogProps {
  model: ModelView;
  catalogNames: readonly string[];
  onClose(): void;
}

export function FallbacksDialog({ model, catalogNames, onClose }: FallbacksDialogProps) {
  const { t } = useTranslation("models");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState(model.fallbacks.join(", "));
  useEscape(onClose);
  const save = useMutation(
    trpc.models.setFallbacks.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
        onClose();
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ name: model.name, fallbacks: commaList(text) });
  };
  const others = catalogNames.filter((name) => name !== model.name);
  return (
    <div className="overlay" role="presentation" onClick={onClose}>
      <form
        className="dialog dialog-confirm"
        role="dialog"
        aria-modal="true"
        aria-labelledby="fallbacks-title"
        data-testid="fallbacks-dialog"
        onClick={(event) => event.stopPropagation()}
        onSubmit={submit}
      >
        <h2 id="fallbacks-title">{t("fallbacks.title", { name: model.name })}</h2>
        <p className="muted">{t("fallbacks.hint")}</p>
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
        {save.isError ? (
          <p className="bad-text" role="alert" data-testid="fallbacks-error">
            {describeError(save.error, tc)}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="control" onClick={onClose}>
            {t("fallbacks.cancel")}
          </button>
          <button
            type="submit"
            className="primary"
            disabled={save.isPending}
            data-testid="fallbacks-save"
          >
            {t("fallbacks.save")}
          </button>
        </div>
      </form>
    </div>
  );
}
