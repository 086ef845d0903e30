"use client";
// The strip under the top bar that says, in words, what the console cannot do right now: the
// control plane does not answer (with the time of the data still on screen; the console keeps
// asking by itself), or a newer console is running (with a reload, instead of breaking later).
import { useTranslation } from "react-i18next";
import { useConnection } from "../../hooks/use-connection";
import { useNewerConsole } from "../../hooks/use-newer-console";

function timeOf(at: number, lang: string): string {
  return new Intl.DateTimeFormat(lang, { timeStyle: "medium" }).format(new Date(at));
}

export function ConnectionBanner() {
  const { t, i18n } = useTranslation();
  const connection = useConnection();
  const isNewer = useNewerConsole();
  return (
    <div className="desk-banners">
      {connection.reachable ? null : (
        <div
          className="desk-banner desk-banner-warning"
          role="status"
          data-testid="unreachable-banner"
        >
          {connection.lastDataAt === null
            ? t("desktop.unreachableNoData")
            : t("desktop.unreachable", { time: timeOf(connection.lastDataAt, i18n.language) })}
        </div>
      )}
      {isNewer ? (
        <div className="desk-banner" role="status" data-testid="newer-console-banner">
          <span>{t("desktop.newerConsole")}</span>
          <button type="button" className="control" onClick={() => window.location.reload()}>
            {t("desktop.reload")}
          </button>
        </div>
      ) : null}
    </div>
  );
}
