// How a model reads to an operator: its state in one word, its counts, and why it is not serving.
import type { ModelState, ModelView, PresetView } from "@llmgw/api";
import {
  describeGpuNeed,
  desiredReplicas,
  externalKeyFiles,
  parseModelDefinition,
  placeModelReplicas,
  presetNote,
  type ModelDefinition,
  type ModelDefinitionInput,
  type ModelProfile,
} from "@llmgw/domain";
import { heldReplicas, livePlacementNodes, type FleetView } from "../fleet/fleet-view";

/** The owner string of a model (`team:ml`), or null when it has none. */
export function modelOwner(model: ModelDefinition): string | null {
  const owner = model.owner;
  if (!owner) return null;
  if (owner.org) return `org:${owner.org}`;
  if (owner.team) return `team:${owner.team}`;
  return owner.project ? `project:${owner.project}` : null;
}

/** Where an external model's key comes from, never the key; the sealed key wins over files. */
function externalKeySource(
  model: ModelDefinition,
  sealed: string | null,
): ModelView["externalKey"] {
  if (!model.external) return null;
  if (sealed !== null) return "sealed";
  return externalKeyFiles(model.external).length > 0 ? "files" : "none";
}

export function modelView(fleet: FleetView, model: ModelDefinition): ModelView {
  const meta = fleet.catalog.meta(model.name);
  const revision = meta?.revision ?? 1;
  const replicas = fleet.book.ofModel(model.name).filter((r) => r.phase !== "stopped");
  const ready = replicas.filter((r) => r.phase === "ready").length;
  const stale = fleet.health.get(model.name);
  // Failures counted against an older definition no longer apply; the next pass clears them.
  const health = stale && stale.revision === revision ? stale : undefined;
  const isParked = health?.isParked ?? false;
  // An on-demand model asked for recently wants its replica, so one that fits nowhere shows it.
  const desired = desiredReplicas(
    {
      ...{ definition: model, revision, demandedAtMs: fleet.demandedAtMs(model.name) },
      autoscaleAdded: fleet.autoscaleAdded(model.name),
    },
    fleet.nowMs(),
    fleet.onDemandIdleMs,
  );
  const unplaceable = fleet.unplaceable.get(model.name);
  let state: ModelState = "progressing";
  if (isParked) state = "parked";
  // Served by its provider: nothing to place, and the gateway answers for it.
  else if (model.external) state = "ready";
  else if (desired === 0) state = "stopped";
  else if (ready >= desired) state = "ready";
  else if (unplaceable) state = "unplaceable";
  return {
    name: model.name,
    definition: model,
    revision,
    state,
    replicasDesired: isParked ? 0 : desired,
    replicasReady: ready,
    replicasTotal: replicas.filter((r) => r.phase !== "failed").length,
    consecutiveFailures: health?.consecutiveFailures ?? 0,
    isParked,
    lastError: health?.lastError ?? null,
    unplaceableReasons:
      unplaceable && state === "unplaceable" ? [unplaceable.summary, ...unplaceable.reasons] : [],
    fallbacks: meta?.fallbacks ?? [],
    owner: modelOwner(model),
    updatedAt: (meta?.updatedAt ?? new Date(0)).toISOString(),
    updatedBy: meta?.updatedBy ?? "system",
    externalKey: externalKeySource(model, meta?.externalKeySealed ?? null),
  };
}

function needOf(profile: ModelProfile): string {
  const engine = `engine ${profile.engine}`;
  if (profile.gpu === undefined)
    return `CPU: ${profile.cpu_cores} cores and ${profile.memory_gb} GB memory (${engine})`;
  const cards = `${profile.gpus} GPU${profile.gpus === 1 ? "" : "s"}`;
  if (typeof profile.gpu === "string") return `${cards} of class ${profile.gpu} (${engine})`;
  return `${cards} with ${describeGpuNeed(profile.gpu)} (${engine})`;
}

export function presetView(fleet: FleetView, input: ModelDefinitionInput): PresetView | null {
  const parsed = parseModelDefinition(input);
  if (!parsed.ok) return null;
  const model = parsed.model;
  const [result] = placeModelReplicas(
    { nodes: livePlacementNodes(fleet), replicas: heldReplicas(fleet) },
    [{ model, replicaId: `${model.name}-preview` }],
  );
  const reasons =
    !result || result.ok
      ? []
      : [
          result.summary,
          ...result.profiles.flatMap((p) =>
            p.rejections.map(
              (r) => `${r.nodeName} (profile ${p.profile}): ${r.reasons.join("; ")}`,
            ),
          ),
        ];
  return {
    name: model.name,
    description: [
      `${model.source} — ${model.replicas.min}-${model.replicas.max} replicas`,
      presetNote(model.name),
    ]
      .filter((part) => part !== undefined)
      .join(". "),
    definition: input,
    needs: model.profiles.map((p) => `profile ${p.name}: ${needOf(p)}`),
    fits: result?.ok ?? false,
    reasons,
  };
}
