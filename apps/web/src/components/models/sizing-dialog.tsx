"use client";
// Cards, context or host resources of a model, from its row: sends the change, shows what sizing
// said (how the replicas restart) or the refusal, translated, under the fields.
import type { ModelView, ResizeResultView } from "@llmgw/api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../trpc/react";
import { draftOf, SizingForm, type SizingAction } from "./sizing-form";

interface SizingDialogProps {
  action: SizingAction;
  model: ModelView;
  onClose(): void;
}

export function SizingDialog({ action, model, onClose }: SizingDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(model));
  const [result, setResult] = useState<ResizeResultView>();
  const onSuccess = async (answer: ResizeResultView) => {
    setResult(answer);
    await queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
  };
  const gpus = useMutation(trpc.models.setGpus.mutationOptions({ onSuccess }));
  const context = useMutation(trpc.models.setContext.mutationOptions({ onSuccess }));
  const resources = useMutation(trpc.models.setResources.mutationOptions({ onSuccess }));
  const mutation = action === "gpus" ? gpus : action === "context" ? context : resources;
  return (
    <SizingForm
      action={action}
      model={model}
      draft={draft}
      onDraft={setDraft}
      send={{
        gpus: (input) => {
          setResult(undefined);
          gpus.mutate(input);
        },
        context: (input) => {
          setResult(undefined);
          context.mutate(input);
        },
        resources: (input) => {
          setResult(undefined);
          resources.mutate(input);
        },
      }}
      onClose={onClose}
      error={mutation.error}
      isPending={mutation.isPending}
      result={result}
    />
  );
}
