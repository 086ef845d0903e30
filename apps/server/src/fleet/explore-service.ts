// The explorer behind `explore.run`: the live fleet reduced to what sizing needs (each reachable
// node's free healthy cards, its memory, its measured read rate), and each model description the
// control plane can read (presets and catalog models whose architecture it knows, and each
// config.json given) planned against it.
import { ServiceError, type ExploreAnswer, type ExploreService } from "@llmgw/api";
import {
  describeConfig,
  exploreModel,
  messageOf,
  PRESETS,
  type ExploreEntry,
  type ExploreNode,
} from "@llmgw/domain";
import { livePlacementNodes, type FleetView } from "./fleet-view";
import { describeSource, type SourceDescriptions } from "./source-descriptions";

/** The memory read rate the node's agent measured, from its last heartbeat; undefined until then. */
function readRateOf(fleet: FleetView, nodeId: string): number | undefined {
  return fleet.registry.get(nodeId)?.heartbeat?.memoryReadBytesPerSecond;
}

function exploreNodes(fleet: FleetView): ExploreNode[] {
  const held = new Set(
    fleet.book.active().flatMap((r) => r.gpuIndexes.map((index) => `${r.nodeId}/${index}`)),
  );
  return livePlacementNodes(fleet)
    .filter((node) => node.isReachable)
    .map((node) => ({
      name: node.name,
      freeCards: node.cards
        .filter((card) => card.isHealthy && !held.has(`${node.id}/${card.index}`))
        .map((card) => ({ gpuClass: card.gpuClass, memoryGb: card.memoryGb })),
      cardsTotal: node.cards.length,
      memoryGbTotal: node.memoryGbTotal,
      memoryReadBytesPerSecond: readRateOf(fleet, node.id),
    }));
}

/** The fleet as the explorer reads it; the server's is `fleetForExplorer`, a test's a literal. */
export interface ExploreFleet {
  nodes(): ExploreNode[];
  /** The catalog's models, by name and where their weights come from. */
  catalogModels(): readonly { name: string; source?: string }[];
  /** Descriptions the nodes read from the sources on their disks; absent: the built-in table only. */
  sources?: Pick<SourceDescriptions, "reported">;
}

export function fleetForExplorer(fleet: FleetView): ExploreFleet {
  return {
    nodes: () => exploreNodes(fleet),
    catalogModels: () => fleet.catalog.current().models,
    sources: fleet.registry.sources,
  };
}

function knownEntries(fleet: ExploreFleet): ExploreEntry[] {
  const sources = [
    ...PRESETS.map((preset) => ({ ...preset, origin: "preset" as const })),
    ...fleet.catalogModels().map((model) => ({ ...model, origin: "catalog" as const })),
  ];
  return sources.flatMap(({ name, source, origin }) => {
    // An external model (served elsewhere) has no source and nothing to size.
    const description = source === undefined ? undefined : describeSource(source, fleet.sources);
    return description === undefined ? [] : [{ name, origin, description }];
  });
}

function refused(name: string, reason: string): ServiceError {
  return new ServiceError("invalid", `config "${name}" cannot be sized: ${reason}`, {
    code: "explore.config_refused",
    params: { name, reason },
  });
}

/** A config.json given by the caller, described; a refusal names the config and its field. */
function givenEntry(config: { name: string; json: string }): ExploreEntry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(config.json);
  } catch (error) {
    throw refused(config.name, `it is not JSON (${messageOf(error)})`);
  }
  const result = describeConfig(parsed);
  if (!result.ok) throw refused(config.name, result.errors.join("; "));
  return { name: config.name, origin: "config", description: result.description };
}

export function createExploreService(fleet: ExploreFleet): ExploreService {
  return {
    async run(configs): Promise<ExploreAnswer> {
      // Every given config is read before anything is planned, so a bad one refuses the call.
      const given = configs.map(givenEntry);
      const nodes = fleet.nodes();
      const models = [...knownEntries(fleet), ...given].map((entry) => exploreModel(entry, nodes));
      return { models };
    },
  };
}
