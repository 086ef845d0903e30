"use client";
// The only time a key's plaintext is on screen: the key, a copy button, a plain warning that it
// will not be shown again, and the control plane's real /v1 address to use it with.
import type { CreatedKey } from "@llmgw/api";
import { useTranslation } from "react-i18next";
import { useAddresses } from "../../hooks/use-addresses";
import { ShownOnce } from "../shown-once";

export function CreatedKeyPanel({ created, onDone }: { created: CreatedKey; onDone(): void }) {
  const { t } = useTranslation("keys");
  const { apiUrl } = useAddresses();
  return (
    <ShownOnce
      value={created.key}
      testId="created-key"
      onDone={onDone}
      labels={{
        warning: t("created.warning"),
        copy: t("created.copy"),
        copied: t("created.copied"),
        copyFailed: t("created.copyFailed"),
        done: t("created.done"),
      }}
    >
      <p className="muted" data-testid="created-key-usage">
        {t("created.usage", { url: `${apiUrl}/v1` })}
      </p>
    </ShownOnce>
  );
}
