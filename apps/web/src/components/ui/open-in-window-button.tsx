"use client";
// "Open in new window" for the page on screen (a node, a replica's logs, the heatmap), so an
// operator can keep it beside the main window; the new window shares the session and language.
import { useTranslation } from "react-i18next";
import { openInNewWindow } from "../../lib/desk/new-window";

export function OpenInWindowButton() {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="control"
      data-testid="open-page-in-new-window"
      onClick={() => openInNewWindow(`${window.location.pathname}${window.location.search}`)}
    >
      {t("openInNewWindow")}
    </button>
  );
}
