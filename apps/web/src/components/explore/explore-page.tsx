"use client";
// The explorer: what fits this fleet now, sized again on demand, with a box to paste config.json
// files that are sized beside the presets and the catalog until the page is left.
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";
import { FormError } from "../ui/form-error";
import { ExploreResults } from "./explore-results";

interface PastedConfig {
  name: string;
  json: string;
}

function PasteBox({ onAdd }: { onAdd(config: PastedConfig): void }) {
  const { t } = useTranslation("explore");
  const [name, setName] = useState("");
  const [json, setJson] = useState("");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onAdd({ name: name.trim(), json });
  };
  return (
    <form className="panel" onSubmit={onSubmit} data-testid="explore-paste">
      <h2>{t("paste.title")}</h2>
      <label className="field">
        <span>{t("paste.name")}</span>
        <input
          value={name}
          onChange={(event) => setName(event.target.value)}
          data-testid="explore-paste-name"
          required
        />
      </label>
      <label className="field">
        <span>{t("paste.json")}</span>
        <textarea
          rows={8}
          value={json}
          onChange={(event) => setJson(event.target.value)}
          data-testid="explore-paste-json"
          aria-describedby="explore-paste-hint"
          required
        />
        <span className="muted" id="explore-paste-hint">
          {t("paste.jsonHint")}
        </span>
      </label>
      <button type="submit" data-testid="explore-paste-submit">
        {t("paste.submit")}
      </button>
    </form>
  );
}

export function ExplorePage() {
  const { t } = useTranslation("explore");
  const trpc = useTRPC();
  const run = useMutation(trpc.explore.run.mutationOptions());
  const [configs, setConfigs] = useState<PastedConfig[]>([]);
  const { mutate } = run;
  useEffect(() => mutate({ configs }), [mutate, configs]);
  // A config the server refuses is dropped again, so the page goes on sizing the rest.
  const add = (config: PastedConfig) =>
    setConfigs((previous) => [...previous.filter((c) => c.name !== config.name), config]);
  return (
    <section className="page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <div className="top-bar-spacer" />
        <button
          type="button"
          onClick={() => mutate({ configs })}
          disabled={run.isPending}
          data-testid="explore-run"
        >
          {run.isPending ? t("running") : t("run")}
        </button>
      </div>
      <p className="muted">{t("help")}</p>
      <FormError error={run.error} testId="explore-error" />
      {run.error && configs.length > 0 ? (
        <button type="button" onClick={() => setConfigs([])} data-testid="explore-clear">
          {t("paste.remove", { name: configs.map((c) => c.name).join(", ") })}
        </button>
      ) : null}
      {run.data ? <ExploreResults answer={run.data} /> : null}
      <PasteBox onAdd={add} />
    </section>
  );
}
