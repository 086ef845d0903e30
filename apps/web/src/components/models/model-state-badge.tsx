"use client";
// A model's state as a coloured mark, uppercased by the current language's rules.
import type { ModelState } from "@llmgw/api";
import { useTranslation } from "react-i18next";
import { upperForDisplay } from "../../lib/format";

export function ModelStateBadge({ state }: { state: ModelState }) {
  const { t, i18n } = useTranslation("models");
  return (
    <span className={`badge badge-model-${state}`} data-testid="model-state" data-state={state}>
      {upperForDisplay(t(`state.${state}`), i18n.language)}
    </span>
  );
}
