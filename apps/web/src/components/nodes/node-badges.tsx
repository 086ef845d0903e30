"use client";
// Small status marks shared by the list and the detail page. Text is uppercased with the current
// language's rules, so Turkish "simüle" becomes "SİMÜLE", not "SIMÜLE".
import type { NodeState } from "@llmgw/api";
import { useTranslation } from "react-i18next";
import { upperForDisplay } from "../../lib/format";

export function StateBadge({ state }: { state: NodeState }) {
  const { t, i18n } = useTranslation();
  return (
    <span className={`badge badge-${state}`} data-testid="node-state" data-state={state}>
      {upperForDisplay(t(`state.${state}`), i18n.language)}
    </span>
  );
}

export function SimulatedBadge() {
  const { t, i18n } = useTranslation();
  return (
    <span className="badge badge-simulated" data-testid="node-simulated">
      {upperForDisplay(t("simulated"), i18n.language)}
    </span>
  );
}

export function LabelChips({ pairs }: { pairs: string[] }) {
  const { t } = useTranslation();
  if (pairs.length === 0) return <span className="muted">{t("none")}</span>;
  return (
    <span className="chips" title={pairs.join("\n")}>
      {pairs.map((pair) => (
        <span key={pair} className="chip">
          {pair}
        </span>
      ))}
    </span>
  );
}
