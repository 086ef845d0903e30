"use client";
// An admin's actions on one node, in its page's toolbar: where it stands (Location…) and whether
// placement may use it (Cordon, Drain, Uncordon). Others see the buttons disabled with the reason,
// as elsewhere in the console; the control plane refuses them anyway (FORBIDDEN).
import type { NodeView } from "@llmgw/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";
import { FormError } from "../ui/form-error";
import { LocationDialog } from "./location-dialog";

type CordonState = NodeView["cordon"];

/** Which cordon buttons a node offers: the states it is not in now. */
export function cordonChoices(current: CordonState): CordonState[] {
  const all: CordonState[] = ["cordoned", "draining", null];
  return all.filter((state) => state !== current);
}

const CORDON_LABEL = { cordoned: "cordonAction", draining: "drain", none: "uncordon" } as const;

export function NodeActions({ node }: { node: NodeView }) {
  const { t } = useTranslation("nodes");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.auth.me.queryOptions(undefined, { staleTime: 30_000 }));
  const isAdmin = me.data?.role === "admin";
  const [isLocating, setLocating] = useState(false);
  const cordon = useMutation(
    trpc.nodes.cordon.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.nodes.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.facility.pathKey() });
      },
    }),
  );
  const title = isAdmin ? undefined : t("actions.adminOnly");
  return (
    <>
      <button
        type="button"
        className="control"
        disabled={!isAdmin}
        title={title}
        onClick={() => setLocating(true)}
        data-testid="node-location"
      >
        {t("actions.location")}
      </button>
      {cordonChoices(node.cordon).map((state) => (
        <button
          key={state ?? "none"}
          type="button"
          className="control"
          disabled={!isAdmin || cordon.isPending}
          title={title}
          onClick={() => cordon.mutate({ id: node.id, state })}
          data-testid={`node-${state ?? "uncordon"}`}
        >
          {t(`actions.${CORDON_LABEL[state ?? "none"]}`)}
        </button>
      ))}
      <FormError error={cordon.error} testId="node-action-error" className="bad-text" />
      {isLocating ? <LocationDialog node={node} onClose={() => setLocating(false)} /> : null}
    </>
  );
}
