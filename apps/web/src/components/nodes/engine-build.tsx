"use client";
// The GPU engine build a node installs (auto, cu13, cu129, none): the choice, who made it and what
// the node applies. An admin changes it here; others see the choice disabled with the reason, and
// the control plane refuses them anyway (FORBIDDEN).
import type { NodeView } from "@llmgw/api";
import { ENGINE_BUILD_CHOICES } from "@llmgw/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../trpc/react";
import { FormError } from "../ui/form-error";

function Applied({ applied }: { applied: NodeView["engineBuild"]["applied"] }) {
  const { t } = useTranslation("nodes");
  if (applied === null)
    return (
      <p className="muted" data-testid="engine-build-applied">
        {t("build.unknown")}
      </p>
    );
  return (
    <div data-testid="engine-build-applied" data-build={applied.build}>
      <p>
        {t("build.applied", { build: applied.build })}{" "}
        <span className="muted">{applied.reason}</span>
      </p>
      {applied.installSource === "" ? null : (
        <p className="mono">{t("build.installs", { source: applied.installSource })}</p>
      )}
      {applied.withheldEngines.length === 0 ? null : (
        <p data-testid="engine-build-withheld">
          {t("build.withheld", { engines: applied.withheldEngines.join(", ") })}
        </p>
      )}
    </div>
  );
}

export function EngineBuild({ node }: { node: NodeView }) {
  const { t, i18n } = useTranslation("nodes");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.auth.me.queryOptions(undefined, { staleTime: 30_000 }));
  const isAdmin = me.data?.role === "admin";
  const [picked, setPicked] = useState<string>(node.engineBuild.choice);
  const save = useMutation(
    trpc.nodes.engineBuild.mutationOptions({
      onSuccess: async () => queryClient.invalidateQueries({ queryKey: trpc.nodes.pathKey() }),
    }),
  );
  const { choice, setBy, setAt } = node.engineBuild;
  return (
    <div className="panel" data-testid="node-engine-build" data-choice={choice}>
      <h2>{t("build.title")}</h2>
      <p className="muted">{t("build.hint")}</p>
      <p>
        {setBy === null || setAt === null
          ? t("build.default", { choice })
          : t("build.chosen", { choice, by: setBy, when: formatDateTime(setAt, i18n.language) })}
      </p>
      <Applied applied={node.engineBuild.applied} />
      <div className="toolbar">
        <select
          value={picked}
          disabled={!isAdmin || save.isPending}
          title={isAdmin ? undefined : t("actions.adminOnly")}
          aria-label={t("build.title")}
          onChange={(event) => setPicked(event.target.value)}
          data-testid="engine-build-select"
        >
          {ENGINE_BUILD_CHOICES.map((build) => (
            <option key={build} value={build}>
              {t(`build.choice.${build}`)}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="control"
          disabled={!isAdmin || save.isPending || picked === choice}
          title={isAdmin ? undefined : t("actions.adminOnly")}
          onClick={() => save.mutate({ id: node.id, build: picked })}
          data-testid="engine-build-save"
        >
          {t("build.save")}
        </button>
      </div>
      <FormError error={save.error} testId="engine-build-error" className="bad-text" />
    </div>
  );
}
