"use client";
// Sends a hold, refreshes the facility list and the nodes, and closes; a refusal stays in the form.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../trpc/react";
import { HoldForm } from "./hold-form";

export function HoldDialog({ domain, onClose }: { domain: string; onClose(): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState({ domain, drain: false });
  const hold = useMutation(
    trpc.facility.hold.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.facility.pathKey() });
        onClose();
      },
    }),
  );
  return (
    <HoldForm
      draft={draft}
      onDraft={setDraft}
      send={(input) => hold.mutate(input)}
      onClose={onClose}
      error={hold.error}
      isPending={hold.isPending}
    />
  );
}
