"use client";
// How a person points an agent at /mcp with a key of their own, in the console's words (the key is
// made on the API keys page, not with a CLI command).
import { useTranslation } from "react-i18next";
import { useAddresses } from "../../hooks/use-addresses";

export function ConnectHelp() {
  const { t } = useTranslation("mcp");
  const { apiUrl } = useAddresses();
  return (
    <div className="panel" data-testid="mcp-connect">
      <h2>{t("connect.title")}</h2>
      <p>{t("connect.body")}</p>
      <p>{t("connect.inspector")}</p>
      <p className="mono command" data-testid="mcp-inspector-command">
        {t("connect.inspectorCommand", { url: `${apiUrl}/mcp` })}
      </p>
      <p className="muted">{t("connect.names")}</p>
    </div>
  );
}
