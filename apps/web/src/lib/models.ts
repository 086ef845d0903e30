// Pure helpers for the models and replicas views: what a definition says about engines, how the
// definition editor's text becomes an object, how the tables order and filter rows.
import type { ModelView } from "@llmgw/api";
import { messageOf } from "@llmgw/domain";
import { compareText } from "./sort";

/** The engines a definition's profiles name, once each in profile order. */
export function definitionEngines(definition: Record<string, unknown>): string[] {
  const profiles = definition.profiles;
  if (!Array.isArray(profiles)) return [];
  const engines = new Set<string>();
  for (const profile of profiles) {
    if (
      profile &&
      typeof profile === "object" &&
      "engine" in profile &&
      typeof profile.engine === "string"
    ) {
      engines.add(profile.engine);
    }
  }
  return [...engines];
}

export type ParsedDefinition =
  | { ok: true; definition: Record<string, unknown> }
  | { ok: false; problem: "empty" | "notObject" | "syntax"; message: string };

/**
 * The editor holds plain JSON. Only syntax and shape are checked here; the control plane validates
 * the definition itself with the one schema, so its refusal lines are the ones to show.
 */
export function parseDefinitionText(text: string): ParsedDefinition {
  if (text.trim() === "") return { ok: false, problem: "empty", message: "" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: "syntax",
      message: messageOf(error),
    };
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    return { ok: false, problem: "notObject", message: "" };
  return { ok: true, definition: value as Record<string, unknown> };
}

/** A starting point for the editor: the smallest definition the simulated fleet can serve. */
export const DEFINITION_TEMPLATE = `${JSON.stringify(
  {
    name: "my-model",
    source: "org/model-name",
    profiles: [{ name: "default", engine: "sim", memory_gb: 1 }],
    replicas: { min: 1, max: 1 },
  },
  null,
  2,
)}\n`;

/** Models by name with numeric collation, so the order never shifts between refreshes. */
export function sortModels(models: readonly ModelView[]): ModelView[] {
  return [...models].sort((a, b) => compareText(a.name, b.name));
}

/** Whether the operator can act on the model now: a parked model waits for a retry. */
export function canRetry(model: ModelView): boolean {
  return model.isParked || model.state === "parked";
}
