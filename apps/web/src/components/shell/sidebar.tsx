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
      { href: "/cluster", label: "nav.cluster", testId: "nav-cluster", shortcut: "g c" },
      { href: "/nodes", label: "nav.nodes", testId: "nav-nodes", shortcut: "g n" },
      { href: "/facility", label: "nav.facility", testId: "nav-facility", shortcut: "g f" },
      { href: "/events", label: "nav.events", testId: "nav-events", shortcut: "g e" },
    ],
  },
  {
    label: "nav.serving",
    entries: [
      { href: "/models", label: "nav.models", testId: "nav-models", shortcut: "g m" },
      { href: "/replicas", label: "nav.replicas", testId: "nav-replicas", shortcut: "g r" },
      { href: "/quotas", label: "nav.quotas", testId: "nav-quotas", shortcut: "g q" },
      { href: "/explore", label: "nav.explore", testId: "nav-explore", shortcut: "g x" },
    ],
  },
  {
    label: "nav.access",
    entries: [
      { href: "/keys", label: "nav.keys", testId: "nav-keys", shortcut: "g k" },
      { href: "/usage", label: "nav.usage", testId: "nav-usage", shortcut: "g u" },
      { href: "/account", label: "nav.account", testId: "nav-account", shortcut: "g y" },
    ],
  },
  {
    label: "nav.identity",
    entries: [
      { href: "/people", label: "nav.people", testId: "nav-people", shortcut: "g p" },
      {
        href: "/people/sign-in",
        label: "nav.signInSetup",
        testId: "nav-signin-setup",
        shortcut: "g s",
      },
      { href: "/audit", label: "nav.audit", testId: "nav-audit", shortcut: "g a" },
    ],
  },
  {
    label: "nav.admin",
    entries: [
      { href: "/admin/mcp", label: "nav.mcp", testId: "nav-mcp", shortcut: "g t" },
      { href: "/admin/guard", label: "nav.guard", testId: "nav-guard", shortcut: "g j" },
      {
        href: "/admin/federation",
        label: "nav.federation",
        testId: "nav-federation",
        shortcut: "g d",
      },
    ],
  },
] as const;

/** Every page in the sidebar, in order, for the command palette. */
export type NavPage = (typeof SECTIONS)[number]["entries"][number];
export const NAV_PAGES: readonly NavPage[] = SECTIONS.flatMap(
  (section): readonly NavPage[] => section.entries,
);

export function Sidebar() {
  const { t } = useTranslation();
  const pathname = usePathname();
  return (
    <nav className="sidebar" aria-label={t("nav.main")}>
      {SECTIONS.map((section) => (
        <div key={section.label} className="sidebar-group">
          <div className="sidebar-section">{t(section.label)}</div>
          {section.entries.map((entry) => {
            // People → Sign-in is its own entry, so People is not lit up on it too.
            const isActive =
              pathname === entry.href ||
              (pathname.startsWith(`${entry.href}/`) && pathname !== "/people/sign-in");
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
