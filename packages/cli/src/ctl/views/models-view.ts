// How the catalog reads in a terminal: the model list, one model in full, presets and the
// placement explanation.
import { stringify } from "yaml";
import type { ModelView, PlacementExplanation, PresetView } from "@llmgw/api";
import { renderTable, truncate } from "../table";

function enginesOf(model: Pick<ModelView, "definition">): string {
  if ((model.definition as { external?: unknown }).external) return "external";
  const profiles = (model.definition as { profiles?: Array<{ engine?: unknown }> }).profiles ?? [];
  const engines = [
    ...new Set(
      profiles.map((profile) => (typeof profile.engine === "string" ? profile.engine : "?")),
    ),
  ];
  return engines.join(",") || "-";
}

/** The error that matters most for the row: what parked it, why it cannot be placed, no key. */
function lastErrorOf(model: ModelView): string {
  const noKey =
    model.externalKey === "none"
      ? `no provider key: llmgw ctl model key set ${model.name} --key-file F`
      : undefined;
  return model.lastError ?? model.unplaceableReasons[0] ?? noKey ?? "-";
}

const KEY_WORDS = {
  sealed: "sealed in the store",
  files: "read from its key files",
  none: "none: requests answer 503 until `llmgw ctl model key set` gives one",
} as const;

export function modelsTable(models: ModelView[]): string {
  const rows = models.map((model) => [
    model.name,
    model.isParked && model.state !== "parked" ? `${model.state} (parked)` : model.state,
    `${model.replicasReady}/${model.replicasDesired}`,
    enginesOf(model),
    model.owner ?? "-",
    truncate(lastErrorOf(model), 80),
  ]);
  return renderTable(["NAME", "STATE", "READY/DESIRED", "ENGINE", "OWNER", "LAST ERROR"], rows);
}

export function modelDetail(model: ModelView): string {
  const facts: Array<[string, string]> = [
    ["name", model.name],
    ["state", model.state + (model.isParked ? " (parked: `llmgw ctl retry` clears it)" : "")],
    [
      "replicas",
      `${model.replicasReady} ready of ${model.replicasDesired} desired (${model.replicasTotal} in all)`,
    ],
    ["failures", `${model.consecutiveFailures} consecutive`],
    ["last error", model.lastError ?? "-"],
    ["fallbacks", model.fallbacks.join(", ") || "-"],
    ["owner", model.owner ?? "-"],
    ...(model.externalKey
      ? [["provider key", KEY_WORDS[model.externalKey]] as [string, string]]
      : []),
    ["revision", `${model.revision}, changed ${model.updatedAt} by ${model.updatedBy}`],
  ];
  const width = Math.max(...facts.map(([key]) => key.length));
  const lines = facts.map(([key, value]) => `${key.padEnd(width)}  ${value}`);
  if (model.unplaceableReasons.length > 0) {
    lines.push("cannot be placed:", ...model.unplaceableReasons.map((reason) => `  - ${reason}`));
  }
  lines.push("definition:", ...indent(stringify(model.definition).trimEnd(), "  "));
  return `${lines.join("\n")}\n`;
}

function indent(text: string, prefix: string): string[] {
  return text.split("\n").map((line) => `${prefix}${line}`);
}

export function presetsTable(presets: PresetView[]): string {
  const rows = presets.map((preset) => [
    preset.name,
    preset.fits ? "yes" : "no",
    preset.needs.join("; ") || "-",
    truncate(preset.fits ? preset.description : (preset.reasons[0] ?? preset.description), 80),
  ]);
  return renderTable(["NAME", "FITS NOW", "NEEDS", "DESCRIPTION / WHY NOT"], rows);
}

export function explanationText(explanation: PlacementExplanation): string {
  const lines = explanation.lines.length > 0 ? explanation.lines : ["(no node has registered)"];
  // The server may already list the summary among the lines; it is worth reading once.
  const summary = explanation.lines.some((line) => line.endsWith(explanation.summary))
    ? ""
    : `${explanation.summary}\n`;
  return `model ${explanation.model}:\n${lines.map((line) => `  ${line}`).join("\n")}\n${summary}`;
}
