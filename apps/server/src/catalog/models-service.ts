// The catalog as the API shows it: desired state from the catalog store, observed state from the
// reconciler's books. Writes go to the store (which audits them); the reconciler is told at once.
import {
  ServiceError,
  type AddModelInput,
  type ModelsService,
  type PlacementExplanation,
} from "@llmgw/api";
import { auditLog } from "@llmgw/db";
import {
  PRESETS,
  explainPlacement,
  findPreset,
  isPresetOffered,
  formatExplanation,
  placementRequestFor,
  presetNames,
  parseOwner,
  type OwnerRef,
} from "@llmgw/domain";
import type { Database } from "@llmgw/db";
import type { EventRecorder } from "../events/event-recorder";
import { requireUnit } from "../identity/org-tree";
import { heldReplicas, livePlacementNodes, type FleetView } from "../fleet/fleet-view";
import type { ModelHealthBook } from "../reconcile/model-health";
import type { Reconciler } from "../reconcile/reconciler";
import type { CatalogStore } from "./catalog-store";
import { modelView, presetView } from "./model-views";
import { createResizeActions } from "./resize-service";

/** Reads through the fleet view; writes only the catalog and a model's failures, then says so. */
export interface ModelsServiceDeps {
  db: Database;
  fleet: FleetView;
  catalog: CatalogStore;
  health: Pick<ModelHealthBook, "get" | "reset">;
  reconciler: Pick<Reconciler, "markDirty" | "reloadQuotas">;
  events: EventRecorder;
  log(line: string): void;
}

export function createModelsService(deps: ModelsServiceDeps): ModelsService {
  const { db, fleet, reconciler } = deps;
  const known = (name: string) => {
    const model = deps.catalog.current().get(name);
    if (!model)
      throw new ServiceError(
        "not_found",
        `model "${name}" is not in the catalog; see \`llmgw ctl models\``,
        { code: "model.not_found", params: { name } },
      );
    return model;
  };
  const definitionOf = (input: AddModelInput): unknown => {
    if ("definition" in input) return input.definition;
    const preset = findPreset(input.preset);
    if (!preset)
      throw new ServiceError(
        "not_found",
        `no preset named "${input.preset}"; presets are ${presetNames().join(", ")}`,
        {
          code: "model.preset_not_found",
          params: { preset: input.preset, presets: presetNames().join(", ") },
        },
      );
    return preset;
  };
  return {
    list: async () => deps.catalog.current().models.map((model) => modelView(fleet, model)),
    get: async (name) => modelView(fleet, known(name)),
    async add(input, actor) {
      const definition = definitionOf(input);
      const model = await deps.catalog.add(definition, actor);
      deps.events.record("catalog.model-added", model.name, {
        model: model.name,
        actor: actor.username,
        preset: "preset" in input ? input.preset : null,
      });
      reconciler.markDirty(model.name);
      return modelView(fleet, known(model.name));
    },
    async remove(name, actor) {
      await deps.catalog.remove(name, actor);
      deps.events.record("catalog.model-removed", name, { model: name, actor: actor.username });
      reconciler.markDirty(name);
    },
    async retry(name, actor) {
      const model = known(name);
      const previous = deps.health.get(name);
      await deps.health.reset(name, deps.catalog.meta(name)?.revision ?? 1);
      await db.insert(auditLog).values({
        actor: actor.username,
        action: "model.retry",
        target: name,
        details: {
          consecutiveFailures: previous?.consecutiveFailures ?? 0,
          wasParked: previous?.isParked ?? false,
          lastError: previous?.lastError ?? null,
        },
      });
      deps.log(`model ${name}: failures cleared by ${actor.username}; placing again`);
      deps.events.record("model.retried", name, {
        model: name,
        actor: actor.username,
        wasParked: previous?.isParked ?? false,
      });
      reconciler.markDirty(name);
      return modelView(fleet, model);
    },
    async setFallbacks(name, fallbacks, actor) {
      await deps.catalog.setFallbacks(name, fallbacks, actor);
      deps.events.record("catalog.fallbacks-changed", name, {
        model: name,
        actor: actor.username,
        fallbacks: fallbacks.join(","),
      });
      return modelView(fleet, known(name));
    },
    async setOwner(name, owner, actor) {
      known(name);
      const ref = owner === null ? null : await checkedOwner(db, owner);
      await deps.catalog.setOwner(name, ref, actor);
      // Planning keeps owner chains with the quotas: read them again so the new owner counts now.
      await reconciler.reloadQuotas();
      deps.log(`model ${name}: owner ${owner ?? "cleared"} by ${actor.username}`);
      return modelView(fleet, known(name));
    },
    async setKey(name, key, actor) {
      await deps.catalog.setExternalKey(name, key, actor);
      deps.log(
        `model ${name}: provider key ${key === null ? "cleared" : "set"} by ${actor.username}`,
      );
      return modelView(fleet, known(name));
    },
    async explainPlacement(name): Promise<PlacementExplanation> {
      const model = known(name);
      if (model.external)
        return {
          model: name,
          lines: [],
          summary: `model "${name}" is served by its provider at ${model.external.url}; nothing is placed for it`,
        };
      const input = { nodes: livePlacementNodes(fleet), replicas: heldReplicas(fleet) };
      const explanations = model.profiles.map((profile) =>
        explainPlacement(input, placementRequestFor(model, profile, `${name}-next`)),
      );
      const lines = explanations.flatMap((explanation, i) =>
        formatExplanation(explanation).map((line) => `[${model.profiles[i]?.name}] ${line}`),
      );
      const chosen = explanations.find((e) => e.nodes.some((n) => n.chosen));
      // Placement alone may find room that a quota refuses: the last pass's refusal comes first.
      const refused = fleet.unplaceable.get(name);
      return {
        model: name,
        lines: refused ? [`last pass: ${refused.summary}`, ...lines] : lines,
        summary: (chosen ?? explanations[0])?.summary ?? `model "${name}" has no profiles`,
      };
    },
    presets: async () => {
      // A node that names no engines offers the built-in ones; comfyui only when it says so.
      const engines = new Set(livePlacementNodes(fleet).flatMap((node) => node.engines ?? []));
      return PRESETS.filter((preset) => isPresetOffered(preset, engines)).flatMap(
        (preset) => presetView(fleet, preset) ?? [],
      );
    },
    ...createResizeActions(deps, known),
  };
}

/** An owner a model may have: an org, team or project of the tree (a person owns no model). */
async function checkedOwner(db: Database, owner: string): Promise<OwnerRef> {
  const ref = parseOwner(owner);
  if (!ref || ref.kind === "user")
    throw new ServiceError(
      "invalid",
      `"${owner}" is not an owner a model can have; give org:NAME, team:NAME or project:NAME`,
      { code: "model.owner_refused", params: { owner } },
    );
  await requireUnit(db, owner);
  return ref;
}
