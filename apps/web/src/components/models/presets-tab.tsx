"use client";
// Presets with what each needs and whether the fleet can hold it now. The fit is recomputed by the
// control plane on every refresh, so a node joining or leaving changes the answer while it is open.
import type { PresetView } from "@llmgw/api";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { describeError, trpcErrorDetails } from "../../lib/errors";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";

const PRESETS_REFETCH_INTERVAL_MS = 5000;

interface PresetsTabProps {
  catalogNames: ReadonlySet<string>;
  canWrite: boolean;
  pendingPreset: string | null;
  failedPreset: { name: string; error: unknown } | null;
  onAdd(name: string): void;
}

function Fit({ preset }: { preset: PresetView }) {
  const { t } = useTranslation("models");
  if (preset.fits) {
    return (
      <span className="fit fit-yes" data-testid="preset-fits" data-fits="true">
        {t("add.fits")}
      </span>
    );
  }
  return (
    <div className="fit fit-no" data-testid="preset-fits" data-fits="false">
      <span>{t("add.doesNotFit")}</span>
      <ul>
        {preset.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    </div>
  );
}

function PresetError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const details = trpcErrorDetails(error);
  return (
    <ul className="form-error inline-errors" role="alert" data-testid="preset-error">
      {(details.length ? details : [describeError(error, t)]).map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

function PresetRow({ preset, props }: { preset: PresetView; props: PresetsTabProps }) {
  const { t } = useTranslation("models");
  const isInCatalog = props.catalogNames.has(preset.name);
  const isPending = props.pendingPreset === preset.name;
  const label = isPending ? t("add.adding") : isInCatalog ? t("add.inCatalog") : t("add.presetAdd");
  return (
    <li
      className="preset"
      data-testid="preset-row"
      data-preset-name={preset.name}
      data-fits={preset.fits}
    >
      <div className="preset-main">
        <span className="mono preset-name">{preset.name}</span>
        <p>{preset.description}</p>
        <div className="muted">
          {t("add.needs")}
          {": "}
          {preset.needs.join("; ")}
        </div>
        <Fit preset={preset} />
        {props.failedPreset?.name === preset.name ? (
          <PresetError error={props.failedPreset.error} />
        ) : null}
      </div>
      <button
        type="button"
        className="control"
        disabled={!props.canWrite || isInCatalog || props.pendingPreset !== null}
        title={props.canWrite ? undefined : t("readOnly")}
        onClick={() => props.onAdd(preset.name)}
        data-testid="preset-add"
      >
        {label}
      </button>
    </li>
  );
}

export function PresetsTab(props: PresetsTabProps) {
  const { t } = useTranslation("models");
  const trpc = useTRPC();
  const presets = useQuery(
    trpc.models.presets.queryOptions(undefined, { refetchInterval: PRESETS_REFETCH_INTERVAL_MS }),
  );
  if (presets.isError && !presets.data)
    return <ErrorPanel error={presets.error} onRetry={() => void presets.refetch()} />;
  if (!presets.data) return <p className="muted">{t("add.presetsLoading")}</p>;
  return (
    <div className="tab-body">
      <p className="muted">{t("add.presetsIntro")}</p>
      {presets.data.length === 0 ? <p className="muted">{t("add.presetsEmpty")}</p> : null}
      <ul className="presets">
        {presets.data.map((preset) => (
          <PresetRow key={preset.name} preset={preset} props={props} />
        ))}
      </ul>
    </div>
  );
}
