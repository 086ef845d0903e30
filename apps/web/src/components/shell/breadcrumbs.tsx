"use client";
// Where the operator is. A node's crumb shows its name, read from the same query cache the detail
// page fills, so it costs no extra request.
import { skipToken, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";

const SECTIONS = ["nodes", "models", "replicas"] as const;

function isSection(value: string): value is (typeof SECTIONS)[number] {
  return (SECTIONS as readonly string[]).includes(value);
}

export function Breadcrumbs() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const pathname = usePathname();
  const [section, id] = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const node = useQuery(
    trpc.nodes.get.queryOptions(section === "nodes" && id ? { id } : skipToken),
  );

  return (
    <nav className="breadcrumbs" aria-label={t("topBar.breadcrumbs")} data-testid="breadcrumbs">
      {section && isSection(section) ? (
        <Link href={`/${section}`} aria-current={id ? undefined : "page"}>
          {t(`nav.${section}`)}
        </Link>
      ) : null}
      {id ? (
        <>
          <span className="crumb-separator" aria-hidden="true">
            {"/"}
          </span>
          <span aria-current="page">
            {section === "admin" && id === "mcp" ? t("nav.mcp") : (node.data?.name ?? id)}
          </span>
        </>
      ) : null}
    </nav>
  );
}
