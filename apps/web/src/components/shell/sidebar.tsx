"use client";
// Left navigation. It lists only pages that exist; future areas appear when they are built.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslation } from "react-i18next";

const SECTIONS = [
  {
    label: "nav.fleet",
    entries: [{ href: "/nodes", label: "nav.nodes", testId: "nav-nodes", shortcut: "g n" }],
  },
  {
    label: "nav.serving",
    entries: [
      { href: "/models", label: "nav.models", testId: "nav-models", shortcut: "g m" },
      { href: "/replicas", label: "nav.replicas", testId: "nav-replicas", shortcut: "g r" },
    ],
  },
  {
    label: "nav.admin",
    entries: [{ href: "/admin/mcp", label: "nav.mcp", testId: "nav-mcp", shortcut: "g p" }],
  },
] as const;

export function Sidebar() {
  const { t } = useTranslation();
  const pathname = usePathname();
  return (
    <nav className="sidebar" aria-label={t("nav.main")}>
      {SECTIONS.map((section) => (
        <div key={section.label} className="sidebar-group">
          <div className="sidebar-section">{t(section.label)}</div>
          {section.entries.map((entry) => {
            const isActive = pathname === entry.href || pathname.startsWith(`${entry.href}/`);
            return (
              <Link
                key={entry.href}
                href={entry.href}
                className="sidebar-link"
                data-testid={entry.testId}
                aria-current={isActive ? "page" : undefined}
              >
                <span>{t(entry.label)}</span>
                <kbd>{entry.shortcut}</kbd>
              </Link>
            );
          })}
        </div>
      ))}
    </nav>
  );
}
