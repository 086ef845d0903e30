// Holding facility domains and cordoning nodes: each writes the store, then the in-memory overlay
// placement reads, records an event and an audit row, and asks the reconciler for a pass (a drain
// starts replacing replicas at once).
import { and, eq, facilityHolds, type Database } from "@llmgw/db";
import {
  ServiceError,
  type FacilityDomainView,
  type FacilityHoldView,
  type FacilityService,
  type NodesService,
} from "@llmgw/api";
import { formatDomain, locationOf, must, parseDomain, type Domain } from "@llmgw/domain";
import type { EventRecorder } from "../events/event-recorder";
import { recordAudit } from "../identity/audit";
import { loadFacility, saveNodeFacility } from "./facility-store";
import type { FacilityHold, FacilityOverlay } from "./facility-overlay";
import type { FacilityNode } from "./node-lists";

export interface FacilityDeps {
  db: Database;
  /** `facilityNodes`: the light list the facility page is built from (node-lists.ts). */
  nodes: Pick<NodesService, "get"> & { facilityNodes(): Promise<FacilityNode[]> };
  facility: FacilityOverlay;
  events: Pick<EventRecorder, "record">;
  facilityChanged(): void;
}

function domainFrom(text: string): Domain {
  const parsed = parseDomain(text);
  // The API's schema checked it already; this guards a caller that did not.
  if (!parsed.ok)
    throw new ServiceError("invalid", parsed.error, {
      code: "facility.domain_invalid",
      params: { reason: parsed.error },
    });
  return parsed.domain;
}

function holdView(hold: FacilityHold): FacilityHoldView {
  return {
    domain: formatDomain(hold),
    isDraining: hold.isDraining,
    heldBy: hold.heldBy,
    heldAt: new Date(hold.heldAtMs).toISOString(),
  };
}

/** Every domain some node names, with its nodes, cards, measured power and hold. */
function domainViews(
  nodes: readonly FacilityNode[],
  holds: readonly FacilityHold[],
): FacilityDomainView[] {
  const byDomain = new Map<string, FacilityDomainView>();
  for (const node of nodes)
    for (const domain of locationOf(node.labels)) {
      const key = formatDomain(domain);
      let view = byDomain.get(key);
      if (!view) {
        const hold = holds.find((h) => formatDomain(h) === key);
        view = {
          domain: key,
          ...domain,
          nodes: [],
          cards: 0,
          powerWatts: null,
          hold: hold ? holdView(hold) : null,
        };
        byDomain.set(key, view);
      }
      view.nodes.push(node.name);
      view.cards += node.cardCount;
      if (node.powerWatts !== null) view.powerWatts = (view.powerWatts ?? 0) + node.powerWatts;
    }
  return [...byDomain.values()].sort((a, b) => a.domain.localeCompare(b.domain, "en"));
}

export function createFacilityService(deps: FacilityDeps): FacilityService {
  return {
    list: async () => {
      const holds = deps.facility.holds();
      const nodes = await deps.nodes.facilityNodes();
      return { domains: domainViews(nodes, holds), holds: holds.map(holdView) };
    },
    hold: async (text, drain, actor) => {
      const domain = domainFrom(text);
      const row = { ...domain, isDraining: drain, heldBy: actor.username, heldAt: new Date() };
      await deps.db
        .insert(facilityHolds)
        .values(row)
        .onConflictDoUpdate({
          target: [facilityHolds.kind, facilityHolds.value],
          set: { isDraining: drain, heldBy: actor.username, heldAt: row.heldAt },
        });
      await loadFacility(deps.db, deps.facility);
      const params = { domain: formatDomain(domain), actor: actor.username, drain };
      deps.events.record("facility.held", params.domain, params);
      await recordAudit(deps.db, {
        actor: actor.username,
        action: "facility.hold",
        target: params.domain,
        details: { drain },
      });
      deps.facilityChanged();
      const hold = deps.facility.holds().find((h) => formatDomain(h) === params.domain);
      return holdView(must(hold, "the hold just written"));
    },
    release: async (text, actor) => {
      const domain = domainFrom(text);
      const key = formatDomain(domain);
      const hold = deps.facility.holds().find((h) => formatDomain(h) === key);
      if (!hold)
        throw new ServiceError("not_found", `${key} is not held; see llmgw ctl facility list`, {
          code: "facility.not_held",
          params: { domain: key },
        });
      await deps.db
        .delete(facilityHolds)
        .where(and(eq(facilityHolds.kind, domain.kind), eq(facilityHolds.value, domain.value)));
      deps.facility.setHolds(deps.facility.holds().filter((h) => h !== hold));
      deps.events.record("facility.released", key, { domain: key, actor: actor.username });
      await recordAudit(deps.db, {
        actor: actor.username,
        action: "facility.release",
        target: key,
        details: {},
      });
      deps.facilityChanged();
      return holdView(hold);
    },
  };
}

const CORDON_EVENTS = { cordoned: "node.cordoned", draining: "node.draining" } as const;

export function nodeCordoner(deps: FacilityDeps): NodesService["cordon"] {
  return async ({ id, state }, actor) => {
    const node = await deps.nodes.get(id);
    await saveNodeFacility(deps.db, node.id, deps.facility.storedLabels(node.id), state);
    deps.facility.setCordon(node.id, state);
    const kind = state === null ? "node.uncordoned" : CORDON_EVENTS[state];
    deps.events.record(kind, node.id, { node: node.name, actor: actor.username });
    await recordAudit(deps.db, {
      actor: actor.username,
      action: "node.cordon",
      target: node.id,
      details: { name: node.name, state },
    });
    deps.facilityChanged();
    return deps.nodes.get(node.id);
  };
}
