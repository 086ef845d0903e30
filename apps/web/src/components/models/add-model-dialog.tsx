"use client";
// "Add model": a preset in one click, or a whole definition written by hand. Both go through the
// same models.add call; a success closes the dialog and the new row appears in the live table.
import type { AddModelInput } from "@llmgw/api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";
import { Dialog } from "../ui/dialog";
import { DefinitionTab } from "./definition-tab";
import { PresetsTab } from "./presets-tab";

type Tab = "presets" | "definition";
const TABS: readonly Tab[] = ["presets", "definition"];

interface AddModelDialogProps {
  catalogNames: ReadonlySet<string>;
  canWrite: boolean;
  onClose(): void;
}

export function AddModelDialog({ catalogNames, canWrite, onClose }: AddModelDialogProps) {
  const { t } = useTranslation("models");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>("presets");
  const add = useMutation(
    trpc.models.add.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
        onClose();
      },
    }),
  );
  const input: AddModelInput | undefined = add.variables;
  const pendingPreset = add.isPending && input && "preset" in input ? input.preset : null;
  const failedPreset =
    add.isError && input && "preset" in input ? { name: input.preset, error: add.error } : null;
  const definitionError = add.isError && input && "definition" in input ? add.error : null;

  return (
    <Dialog
      testId="add-model-dialog"
      title={t("add.title")}
      onClose={onClose}
      headerActions={
        <button type="button" className="control" onClick={onClose} data-testid="add-model-close">
          {t("add.close")}
        </button>
      }
    >
      <div className="tabs" role="tablist">
        {TABS.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            className="tab"
            aria-selected={tab === id}
            aria-controls={`add-model-${id}`}
            onClick={() => setTab(id)}
            data-testid={`${id}-tab`}
          >
            {t(`add.${id}Tab`)}
          </button>
        ))}
      </div>
      <div id={`add-model-${tab}`} role="tabpanel">
        {tab === "presets" ? (
          <PresetsTab
            catalogNames={catalogNames}
            canWrite={canWrite}
            pendingPreset={pendingPreset}
            failedPreset={failedPreset}
            onAdd={(preset) => add.mutate({ preset })}
          />
        ) : (
          <DefinitionTab
            canWrite={canWrite}
            isPending={add.isPending}
            error={definitionError}
            onSubmit={(definition) => add.mutate({ definition })}
          />
        )}
      </div>
    </Dialog>
  );
}
