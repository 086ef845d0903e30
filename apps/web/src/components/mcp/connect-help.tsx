"use client";
// How a person points an agent at /mcp with a key of their own.
import { useTranslation } from "react-i18next";
import { useAddresses } from "../../hooks/use-addresses";

export function ConnectHelp() {
  const { t } = useTranslation("mcp");
  const { apiUrl } = useAddresses();
  return (
    <div className="panel" data-testid="mcp-connect">
      <h2>{t("connect.title")}</h2>
      <p>{t("connect.body")}</p>
      <p className="mono command">{t("connect.keyCommand")}</p>
      <p>{t("connect.inspector")}</p>
      <p className="mono command" data-testid="mcp-inspector-command">
        {t("connect.inspectorCommand", { url: `${apiUrl}/mcp` })}
      </p>
      <p className="muted">{t("connect.names")}</p>
    </div>
  );
}
