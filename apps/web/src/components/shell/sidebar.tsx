"use client";
// Left navigation. It lists only pages that exist; future areas appear when they are built.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslation } from "react-i18next";
import { AttentionBadge } from "../events/attention-badge";

const SECTIONS = [
  {
    label: "nav.fleet",
    entries: [
      { href: "/nodes", label: "nav.nodes", testId: "nav-nodes", shortcut: "g n" },
      { href: "/events", label: "nav.events", testId: "nav-events", shortcut: "g e" },
    ],
  },
  {
    label: "nav.serving",
    entries: [
      { href: "/models", label: "nav.models", testId: "nav-models", shortcut: "g m" },
      { href: "/replicas", label: "nav.replicas", testId: "nav-replicas", shortcut: "g r" },
    ],
  },
  {
    label: "nav.access",
    entries: [
      { href: "/keys", label: "nav.keys", testId: "nav-keys", shortcut: "g k" },
      { href: "/usage", label: "nav.usage", testId: "nav-usage", shortcut: "g u" },
    ],
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
                {entry.href === "/events" ? <AttentionBadge /> : null}
                <kbd>{entry.shortcut}</kbd>
              </Link>
            );
          })}
        </div>
      ))}
    </nav>
  );
}
