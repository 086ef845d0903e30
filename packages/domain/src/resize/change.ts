// The three sizing actions as changes to one profile of a definition: cards (with the engine's
// tensor parallel), context (with slots) and host resources. Only the new definition is built
// here; whether the fleet and the cards can hold it is `resize.ts`'s.
import type { ModelDefinition, ModelProfile } from "../catalog/model-definition";
import { note } from "../sizing/notes";
import type { SizingNote } from "../sizing/types";

export type ResizeChange =
  | { kind: "gpus"; gpus: number; profile?: string; inPlace?: boolean }
  | { kind: "context"; contextTokens: number; slots?: number; profile?: string; inPlace?: boolean }
  | { kind: "resources"; cpuCores: number; memoryGb: number; profile?: string; inPlace?: boolean };

/** The profile a change is for: the one named, or the model's first (most have one). */
export function profileFor(
  model: ModelDefinition,
  name: string | undefined,
): ModelProfile | SizingNote {
  const found =
    name === undefined ? model.profiles[0] : model.profiles.find((p) => p.name === name);
  if (found) return found;
  const profiles = model.profiles.map((p) => p.name).join(", ");
  if (name === undefined)
    return note(
      "sizing.no_profiles",
      { model: model.name },
      `model "${model.name}" has no profiles to size (an external model is served by its provider)`,
    );
  return note(
    "sizing.profile_not_found",
    { model: model.name, profile: name, profiles },
    `model "${model.name}" has no profile "${name}"; its profiles are ${profiles}`,
  );
}

/**
 * The profile after the change. Cards and tensor parallel change together: an engine that splits
 * heads gets tensor parallel equal to the cards of each node (nodes beyond the first are pipeline
 * stages); llama.cpp splits layers by itself and keeps 1.
 */
export function changedProfile(profile: ModelProfile, change: ResizeChange): ModelProfile {
  switch (change.kind) {
    case "gpus":
      return {
        ...profile,
        gpus: change.gpus,
        tensor_parallel: profile.engine === "llamacpp" ? 1 : change.gpus,
      };
    case "context": {
      const slots = change.slots ?? profile.slots;
      return {
        ...profile,
        context_length: change.contextTokens,
        ...(slots === undefined ? {} : { slots }),
      };
    }
    case "resources":
      return { ...profile, cpu_cores: change.cpuCores, memory_gb: change.memoryGb };
  }
}

/** The definition with the profile replaced and the restart mode this change asked for. */
export function changedDefinition(
  model: ModelDefinition,
  profile: ModelProfile,
  inPlace: boolean,
): ModelDefinition {
  const profiles = model.profiles.map((p) => (p.name === profile.name ? profile : p));
  const { restart: _previous, ...rest } = model;
  return inPlace ? { ...rest, profiles, restart: "in-place" } : { ...rest, profiles };
}
