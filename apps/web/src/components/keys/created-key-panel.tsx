"use client";
// The only time a key's plaintext is on screen: the key, a copy button, and a plain warning that
// it will not be shown again.
import type { CreatedKey } from "@llmgw/api";
import { useTranslation } from "react-i18next";
import { ShownOnce } from "../shown-once";

export function CreatedKeyPanel({ created, onDone }: { created: CreatedKey; onDone(): void }) {
  const { t } = useTranslation("keys");
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
      <p className="muted">{t("created.usage")}</p>
    </ShownOnce>
  );
}
