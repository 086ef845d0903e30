"use client";
// A model's LoRA adapters: each is asked for as MODEL:ADAPTER. Adding or removing one sends the
// model's definition back, which the control plane checks (pickle, engine limits) and rolls out
// to the replicas one at a time; its refusal appears under the form.
import type { ModelView } from "@llmgw/api";
import { addModelInputSchema } from "@llmgw/api/schemas";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { adaptersOf, rankOf, withAdapter, withoutAdapter } from "../../lib/adapters";
import { useTRPC } from "../../trpc/react";
import { DialogForm } from "../ui/dialog-form";

interface AdaptersDialogProps {
  model: ModelView;
  canWrite: boolean;
  onClose(): void;
}

export function AdaptersDialog({ model, canWrite, onClose }: AdaptersDialogProps) {
  const { t } = useTranslation("models");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [source, setSource] = useState("");
  const [rank, setRank] = useState("");
  const save = useMutation(
    trpc.models.add.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
        setName("");
        setSource("");
        setRank("");
      },
    }),
  );
  const adapters = adaptersOf(model.definition);
  const given = rankOf(rank);
  return (
    <DialogForm
      testId="adapters-dialog"
      className="dialog-confirm"
      title={t("adapters.title", { name: model.name })}
      onClose={onClose}
      intro={
        <>
          <p className="muted">{t("adapters.hint", { name: model.name })}</p>
          {adapters.length === 0 ? <p className="muted">{t("adapters.none")}</p> : null}
          <ul className="inline-errors" data-testid="adapters-list">
            {adapters.map((adapter) => (
              <li key={adapter.name} data-testid="adapter-row">
                <span className="mono">{`${model.name}:${adapter.name}`}</span>{" "}
                <span className="muted">{adapter.source}</span>{" "}
                <button
                  type="button"
                  className="control control-small"
                  disabled={!canWrite || save.isPending}
                  onClick={() =>
                    save.mutate({ definition: withoutAdapter(model.definition, adapter.name) })
                  }
                  data-testid="adapter-remove"
                >
                  {t("adapters.remove")}
                </button>
              </li>
            ))}
          </ul>
        </>
      }
      form={{
        schema: addModelInputSchema,
        readInput: () => ({
          definition: withAdapter(model.definition, {
            name: name.trim(),
            source: source.trim(),
            ...(given === undefined ? {} : { rank: given }),
          }),
        }),
        onSubmit: (input) => save.mutate(input),
        error: save.error,
        errorTestId: "adapters-error",
        errorClassName: "bad-text",
        actions: {
          submitLabel: t("adapters.add"),
          submitTestId: "adapters-add",
          isPending: save.isPending,
          isSubmitDisabled: !canWrite,
          cancelLabel: t("adapters.close"),
          onCancel: onClose,
        },
      }}
    >
      <input
        value={name}
        onChange={(event) => setName(event.target.value)}
        placeholder={t("adapters.namePlaceholder")}
        aria-label={t("adapters.nameLabel")}
        data-testid="adapter-name"
      />
      <input
        value={source}
        onChange={(event) => setSource(event.target.value)}
        placeholder={t("adapters.sourcePlaceholder")}
        aria-label={t("adapters.sourceLabel")}
        data-testid="adapter-source"
      />
      <input
        value={rank}
        inputMode="numeric"
        onChange={(event) => setRank(event.target.value)}
        aria-label={t("adapters.rankLabel")}
        placeholder={t("adapters.rankLabel")}
        data-testid="adapter-rank"
      />
    </DialogForm>
  );
}
