"use client";
// Where an address field would be for llmgw:admin: that server is answered inside llmgw and has
// no address to type or change.
import { useTranslation } from "react-i18next";

export function BuiltInAddress({ testId }: { testId: string }) {
  const { t } = useTranslation("mcp");
  return (
    <div className="field">
      <span>{t("add.url")}</span>
      <span className="muted" data-testid={testId}>
        {t("builtIn")}
      </span>
    </div>
  );
}
