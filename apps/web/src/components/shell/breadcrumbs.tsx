"use client";
// Where the operator is. A node's crumb shows its name, read from the same query cache the detail
// page fills, so it costs no extra request.
import { skipToken, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";

const SECTIONS = [
  "cluster",
  "nodes",
  "facility",
  "models",
  "replicas",
  "quotas",
  "keys",
  "usage",
  "events",
  "people",
  "audit",
  "account",
] as const;

/** Pages below a section that are not an item of it: their crumb is the page's own name. */
const NAMED_PAGES: Record<string, "nav.signInSetup" | "nav.mcp" | "nav.federation"> = {
  "people/sign-in": "nav.signInSetup",
  "admin/mcp": "nav.mcp",
  "admin/federation": "nav.federation",
};

function isSection(value: string): value is (typeof SECTIONS)[number] {
  return (SECTIONS as readonly string[]).includes(value);
}

export function Breadcrumbs() {
  const { t } = useTranslation();
  const { t: tl } = useTranslation("logs");
  const trpc = useTRPC();
  const pathname = usePathname();
  const [section, id, subpage] = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const named = section && id ? NAMED_PAGES[`${section}/${id}`] : undefined;
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
      {section === "admin" ? <span>{t("nav.admin")}</span> : null}
      {id ? (
        <>
          <span className="crumb-separator" aria-hidden="true">
            {"/"}
          </span>
          {named ? (
            <span aria-current="page">{t(named)}</span>
          ) : subpage ? (
            <Link href={`/${section}/${encodeURIComponent(id)}`}>{node.data?.name ?? id}</Link>
          ) : (
            <span aria-current="page">{node.data?.name ?? id}</span>
          )}
        </>
      ) : null}
      {subpage === "logs" ? (
        <>
          <span className="crumb-separator" aria-hidden="true">
            {"/"}
          </span>
          <span aria-current="page">{tl("crumb")}</span>
        </>
      ) : null}
    </nav>
  );
}
