"use client";
// Sets a node's location from its page: sends the labels, refreshes the node and closes; a
// refusal stays under the fields, translated.
import type { NodeView } from "@llmgw/api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../trpc/react";
import { LocationForm, locationDraftOf } from "./location-form";

export function LocationDialog({ node, onClose }: { node: NodeView; onClose(): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => locationDraftOf(node));
  const save = useMutation(
    trpc.nodes.label.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.nodes.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.facility.pathKey() });
        onClose();
      },
    }),
  );
  return (
    <LocationForm
      node={node}
      draft={draft}
      onDraft={setDraft}
      send={(input) => save.mutate(input)}
      onClose={onClose}
      error={save.error}
      isPending={save.isPending}
    />
  );
}
