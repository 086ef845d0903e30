// The window's title: in an installed (standalone) window it is the only place naming where the
// operator is, so it reads "<page> · <cluster> — llmgw". The cluster is named by the console's
// host (the control plane has no name setting of its own). In a browser tab the title stays short.
//
// Next streams the layout's metadata (`title: "llmgw"`) after a navigation has rendered, which
// put the short title back over the one set here; so the title is held: set again whenever
// <head> changes, and when the window becomes (or stops being) standalone.
import { usePathname } from "next/navigation";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { NAV_PAGES } from "../components/shell/sidebar";

const STANDALONE_QUERIES = ["standalone", "window-controls-overlay"].map(
  (mode) => `(display-mode: ${mode})`,
);

function isStandalone(): boolean {
  return STANDALONE_QUERIES.some((query) => window.matchMedia(query).matches);
}

function navPage(pathname: string): (typeof NAV_PAGES)[number] | null {
  const page = [...NAV_PAGES]
    .sort((a, b) => b.href.length - a.href.length)
    .find((entry) => pathname === entry.href || pathname.startsWith(`${entry.href}/`));
  return page ?? null;
}

export function useWindowTitle(): void {
  const { t } = useTranslation();
  const pathname = usePathname();
  useEffect(() => {
    const page = navPage(pathname);
    const wanted = () => {
      const product = t("productName");
      return isStandalone() && page
        ? t("desktop.windowTitle", { page: t(page.label), cluster: window.location.host, product })
        : product;
    };
    const apply = () => {
      const title = wanted();
      if (document.title !== title) document.title = title;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    const queries = STANDALONE_QUERIES.map((query) => window.matchMedia(query));
    for (const query of queries) query.addEventListener("change", apply);
    return () => {
      observer.disconnect();
      for (const query of queries) query.removeEventListener("change", apply);
    };
  }, [pathname, t]);
}
