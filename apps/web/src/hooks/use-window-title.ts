// The window's title: in an installed (standalone) window it is the only place naming where the
// operator is, so it reads "<page> · <cluster> — llmgw". The cluster is named by the console's
// host (the control plane has no name setting of its own). In a browser tab the title stays short.
import { usePathname } from "next/navigation";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { NAV_PAGES } from "../components/shell/sidebar";

function isStandalone(): boolean {
  return ["standalone", "window-controls-overlay"].some(
    (mode) => window.matchMedia(`(display-mode: ${mode})`).matches,
  );
}

export function useWindowTitle(): void {
  const { t } = useTranslation();
  const pathname = usePathname();
  useEffect(() => {
    const page = [...NAV_PAGES]
      .sort((a, b) => b.href.length - a.href.length)
      .find((entry) => pathname === entry.href || pathname.startsWith(`${entry.href}/`));
    const pageName = page ? t(page.label) : null;
    const product = t("productName");
    document.title =
      isStandalone() && pageName
        ? t("desktop.windowTitle", { page: pageName, cluster: window.location.host, product })
        : product;
  }, [pathname, t]);
}
