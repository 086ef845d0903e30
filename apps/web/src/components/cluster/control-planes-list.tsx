"use client";
// The control planes sharing the store, for admins: which one leads and for how long, the
// standbys, and any that went quiet. Hidden for other roles (the list names internal addresses).
import type { ControlPlaneView } from "@llmgw/api";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";

const REFETCH_MS = 5_000;

function roleOf(plane: ControlPlaneView): "leader" | "standby" | "quiet" {
  if (plane.isLeader) return "leader";
  return plane.isLive ? "standby" : "quiet";
}

export function ControlPlanesSection() {
  const { t } = useTranslation("cluster");
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.me.queryOptions());
  const planes = useQuery(
    trpc.controlPlanes.list.queryOptions(undefined, {
      enabled: me.data?.role === "admin",
      refetchInterval: REFETCH_MS,
    }),
  );
  if (me.data?.role !== "admin" || !planes.data) return null;
  return (
    <section>
      <h2>{t("controlPlanes.title")}</h2>
      <ul className="plain-list" data-testid="control-planes">
        {planes.data.map((plane) => {
          const role = roleOf(plane);
          return (
            <li
              key={`${plane.name}-${plane.startedAt}`}
              data-testid="control-plane"
              data-role={role}
            >
              <span className="truncate" title={plane.apiUrl}>
                {plane.name}
              </span>{" "}
              <span className={role === "quiet" ? "warning" : "muted"}>
                {t(`controlPlanes.role.${role}`)}
                {" · "}
                {t("controlPlanes.version", { version: plane.version })}
                {plane.leaseAgeMs !== null
                  ? ` · ${t("controlPlanes.leaseAge", { seconds: Math.round(plane.leaseAgeMs / 1000) })}`
                  : null}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
