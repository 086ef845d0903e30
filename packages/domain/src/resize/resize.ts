// Whether a sizing action (`ctl model gpus|context|resources`) may go through, and the definition
// it makes. Refused, in this order: a profile that is not there, cards for a CPU profile, a
// definition the catalog refuses, a profile no node could hold even empty (naming the most cards
// a node has), then, for a model sizing can describe, what the plan refuses on those cards and a
// context asked for that the cards cannot hold (naming the largest that fits). What goes through
// says how it will restart: beside the running replicas, or in place when asked or when there is
// no room beside.
import {
  parseModelDefinition,
  type ModelDefinition,
  type ModelProfile,
} from "../catalog/model-definition";
import { placeReplica } from "../placement/place";
import { placementRequestFor } from "../placement/request";
import type { ExistingReplica, PlacementNode, ReplicaShard } from "../placement/types";
import { cardsWord, note } from "../sizing/notes";
import { planModel, type ModelPlan } from "../sizing/plan";
import type { ModelDescription, SizingNote } from "../sizing/types";
import { changedDefinition, changedProfile, profileFor, type ResizeChange } from "./change";
import { mostCardsOnANode } from "./cards";

export { type ResizeChange } from "./change";

export interface ResizeFleet {
  nodes: readonly PlacementNode[];
  /** Every replica holding room now, the model's own included. */
  replicas: readonly ExistingReplica[];
}

export type ResizeResult =
  | { ok: true; definition: ModelDefinition; profile: string; notes: SizingNote[] }
  | { ok: false; refusal: SizingNote };

const refused = (refusal: SizingNote): ResizeResult => ({ ok: false, refusal });

/** The change applied to `model`, or why not; `description` when sizing knows the architecture. */
export function resizeModel(
  model: ModelDefinition,
  change: ResizeChange,
  fleet: ResizeFleet,
  description?: ModelDescription,
): ResizeResult {
  const profile = profileFor(model, change.profile);
  if ("code" in profile) return refused(profile);
  if (change.kind === "gpus" && profile.gpu === undefined)
    return refused(
      note(
        "sizing.cpu_profile",
        { model: model.name, profile: profile.name },
        `profile "${profile.name}" of model "${model.name}" runs on CPU; give it a gpu class before a card count`,
      ),
    );
  const built = buildDefinition(model, changedProfile(profile, change), change.inPlace === true);
  if (!built.ok) return built;
  const { definition, next } = built;
  const empty = placeReplica(
    { nodes: fleet.nodes, replicas: [] },
    placementRequestFor(definition, next, "resize"),
  );
  if (!empty.ok)
    return refused(noNodeRefusal(model.name, next, change, fleet.nodes, empty.summary));
  const notes: SizingNote[] = [];
  if (description && next.gpu !== undefined) {
    const plan = planOn(description, next, fleet.nodes, empty.shards);
    const refusal = planRefusal(model.name, next, change, plan);
    if (refusal) return refused(refusal);
    notes.push(...plan.notes.filter((n) => PLAN_NOTES_SAID.has(n.code)));
  }
  notes.push(restartNote(model.name, definition, next, fleet, change.inPlace === true));
  return { ok: true, definition, profile: next.name, notes };
}

/** The plan's sentences worth repeating in an answer: the split and what the context became. */
const PLAN_NOTES_SAID: ReadonlySet<string> = new Set([
  "sizing.tensor_parallel",
  "sizing.layer_split",
  "sizing.expert_parallel",
  "sizing.context_fits",
  "sizing.context_shrunk",
]);

function buildDefinition(
  model: ModelDefinition,
  next: ModelProfile,
  inPlace: boolean,
):
  | { ok: true; definition: ModelDefinition; next: ModelProfile }
  | { ok: false; refusal: SizingNote } {
  const parsed = parseModelDefinition(changedDefinition(model, next, inPlace));
  if (!parsed.ok) {
    const reason = parsed.errors.join("; ");
    return refused(
      note(
        "sizing.definition_refused",
        { model: model.name, reason },
        `model "${model.name}" would be refused: ${reason}`,
      ),
    ) as { ok: false; refusal: SizingNote };
  }
  const parsedProfile = parsed.model.profiles.find((p) => p.name === next.name) ?? next;
  return { ok: true, definition: parsed.model, next: parsedProfile };
}

function noNodeRefusal(
  model: string,
  profile: ModelProfile,
  change: ResizeChange,
  nodes: readonly PlacementNode[],
  why: string,
): SizingNote {
  if (profile.gpu === undefined || change.kind !== "gpus")
    return note(
      "sizing.no_node_holds",
      {
        model,
        profile: profile.name,
        cpuCores: profile.cpu_cores,
        memoryGb: profile.memory_gb,
        why,
      },
      `no node could hold a replica of "${model}" with ${profile.cpu_cores} cores and ${profile.memory_gb} GB of memory, even with nothing else on it: ${why}`,
    );
  const most = mostCardsOnANode(nodes, profile.gpu);
  return note(
    "sizing.no_node_has_cards",
    { model, profile: profile.name, gpus: profile.gpus, mostCards: most, why },
    `no node could hold a replica of "${model}" on ${profile.gpus} cards, even with nothing else on it (the most cards of its class on one node is ${most}): ${why}`,
  );
}

/** The plan on the cards the profile would get, each the size of the node's smallest chosen card. */
function planOn(
  description: ModelDescription,
  profile: ModelProfile,
  nodes: readonly PlacementNode[],
  shards: readonly ReplicaShard[],
): ModelPlan {
  const first = shards[0];
  const node = nodes.find((n) => n.id === first?.nodeId);
  const chosen = node?.cards.filter((c) => first?.cardIndexes.includes(c.index)) ?? [];
  const memoryGb = Math.min(...chosen.map((c) => c.memoryGb));
  return planModel(description, {
    cards: { memoryGb, count: profile.gpus * profile.nodes },
    ...(profile.context_length === undefined ? {} : { contextTokens: profile.context_length }),
    ...(profile.slots === undefined ? {} : { slots: profile.slots }),
  });
}

/**
 * What the plan refuses, and a context the operator asked for that would be shrunk. A context
 * the profile never named is the trained one; its shrinking is left to the start of each replica.
 */
function planRefusal(
  model: string,
  profile: ModelProfile,
  change: ResizeChange,
  plan: ModelPlan,
): SizingNote | undefined {
  if (plan.refusal) return plan.refusal;
  const asked = profile.context_length;
  if (asked === undefined || plan.contextTokens >= asked) return undefined;
  const params = {
    model,
    askedTokens: asked,
    largestTokens: plan.contextTokens,
    cards: plan.cards,
    cardsForFullContext: plan.cardsForFullContext ?? 0,
  };
  const what = change.kind === "gpus" ? cardsWord(plan.cards) : `its ${cardsWord(plan.cards)}`;
  return note(
    "sizing.context_too_long",
    params,
    `model "${model}": ${what} ${plan.cards === 1 ? "holds" : "hold"} ${plan.contextTokens} tokens of context beside the weights, not the ${asked} asked for; ask for ${plan.contextTokens} or less${params.cardsForFullContext ? `, or use ${params.cardsForFullContext} cards` : ""}`,
  );
}

/** How the running replicas will be replaced, said before it happens. */
function restartNote(
  model: string,
  definition: ModelDefinition,
  profile: ModelProfile,
  fleet: ResizeFleet,
  inPlace: boolean,
): SizingNote {
  const running = fleet.replicas.filter((r) => r.model === model).length;
  if (running === 0)
    return note(
      "sizing.restart_none",
      { model },
      `model "${model}" has no replica running; nothing restarts`,
    );
  if (inPlace)
    return note(
      "sizing.restart_in_place",
      { model, replicas: running },
      `${running} replica(s) of "${model}" restart in place, one at a time: each stops before its replacement starts`,
    );
  const beside = placeReplica(fleet, placementRequestFor(definition, profile, "resize-beside"));
  if (beside.ok)
    return note(
      "sizing.restart_surge",
      { model, replicas: running },
      `${running} replica(s) of "${model}" restart one at a time, each new one started beside an old one, which stops once the new one is ready`,
    );
  return note(
    "sizing.restart_no_room_beside",
    { model, replicas: running, why: beside.summary },
    `no room beside the running replicas of "${model}" (${beside.summary}); unless another restart frees room first, each of its ${running} replica(s) is stopped before its replacement starts (as --in-place does)`,
  );
}
