// The sizing actions (`ctl model gpus|context|resources`): the change is checked against the live
// fleet and, for a model whose architecture is known, its plan on the cards it would get; what
// passes is stored as a new revision of the definition, which the reconciler rolls out one
// replica at a time (surge, or in place).
import {
  ServiceError,
  isRefusalCode,
  type Actor,
  type ModelsService,
  type RefusalInit,
  type ResizeResultView,
} from "@llmgw/api";
import {
  resizeModel,
  type ModelDefinition,
  type ResizeChange,
  type SizingNote,
} from "@llmgw/domain";
import { heldReplicas, livePlacementNodes, type FleetView } from "../fleet/fleet-view";
import { describeSource } from "../fleet/source-descriptions";
import type { EventRecorder } from "../events/event-recorder";
import type { Reconciler } from "../reconcile/reconciler";
import type { CatalogStore } from "./catalog-store";
import { modelView } from "./model-views";

interface ResizeDeps {
  fleet: FleetView;
  catalog: CatalogStore;
  reconciler: Pick<Reconciler, "markDirty">;
  events: EventRecorder;
  log(line: string): void;
}

type ResizeActions = Pick<ModelsService, "setGpus" | "setContext" | "setResources">;

/** A sizing refusal as the API answers it: its own code when the console knows it. */
function refusalError(refusal: SizingNote): ServiceError {
  const init = isRefusalCode(refusal.code)
    ? ({ code: refusal.code, params: refusal.params } as RefusalInit)
    : ({ code: "model.catalog_refused", params: { reason: refusal.text } } as const);
  return new ServiceError("invalid", refusal.text, init);
}

function changeWords(change: ResizeChange): string {
  const how = change.inPlace ? ", in place" : "";
  switch (change.kind) {
    case "gpus":
      return `${change.gpus} cards${how}`;
    case "context":
      return `${change.contextTokens} tokens${change.slots ? ` × ${change.slots} slots` : ""}${how}`;
    case "resources":
      return `${change.cpuCores} cores, ${change.memoryGb} GB${how}`;
  }
}

export function createResizeActions(
  deps: ResizeDeps,
  known: (name: string) => ModelDefinition,
): ResizeActions {
  const fleet: FleetView = deps.fleet;
  const apply = async (
    name: string,
    change: ResizeChange,
    actor: Actor,
  ): Promise<ResizeResultView> => {
    const model = known(name);
    const live = { nodes: livePlacementNodes(fleet), replicas: heldReplicas(fleet) };
    const result = resizeModel(
      model,
      change,
      live,
      describeSource(model.source, fleet.registry.sources),
    );
    if (!result.ok) throw refusalError(result.refusal);
    const revision = deps.catalog.meta(name)?.revision;
    await deps.catalog.add(result.definition, actor);
    const changed = deps.catalog.meta(name)?.revision !== revision;
    if (changed) {
      const words = changeWords(change);
      deps.events.record("catalog.model-resized", name, {
        model: name,
        actor: actor.username,
        action: change.kind,
        change: words,
      });
      deps.log(`model ${name}: ${change.kind} set to ${words} by ${actor.username}`);
      deps.reconciler.markDirty(name);
    }
    return { model: modelView(fleet, known(name)), changed, notes: result.notes };
  };
  return {
    setGpus: (input, actor) => apply(input.name, { kind: "gpus", ...withoutName(input) }, actor),
    setContext: (input, actor) =>
      apply(input.name, { kind: "context", ...withoutName(input) }, actor),
    setResources: (input, actor) =>
      apply(input.name, { kind: "resources", ...withoutName(input) }, actor),
  };
}

function withoutName<T extends { name: string; profile?: string | undefined }>(input: T) {
  const { name: _name, profile, ...rest } = input;
  return profile === undefined ? rest : { ...rest, profile };
}
