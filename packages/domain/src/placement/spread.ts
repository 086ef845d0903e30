// Spreading a model's replicas across racks and PDUs: a rack's switch or a PDU's breaker takes every
// replica in it down together, so placement counts each model's replicas per rack and per PDU and
// prefers the node whose domains hold the fewest. The counts live in the fleet and change as
// replicas are added, like the per-node counts.
import { domainOf, type DomainKind } from "../facility/domains";
import { countInDomain, DomainCounts } from "./domain-counts";
import { isRecordOf } from "./node-index";
import type { DomainMark, Fleet, NodeUsage } from "./fleet-types";
import type { ExistingReplica, PlacementNode } from "./types";

const SPREAD_KINDS: readonly DomainKind[] = ["rack", "pdu"];
const NO_DOMAINS: readonly string[] = [];

/** The node's rack and PDU as `rack=r12`, `pdu=p7`; most nodes name none and share one value. */
export function spreadDomainsOf(node: PlacementNode): readonly string[] {
  let domains: string[] | undefined;
  for (const kind of SPREAD_KINDS) {
    const value = domainOf(node.labels, kind);
    if (value !== undefined) (domains ??= []).push(`${kind}=${value}`);
  }
  return domains ?? NO_DOMAINS;
}

/** Whether two nodes name the same rack and PDU, as spreadDomainsOf reads them, making no list. */
export function sameSpreadDomains(a: PlacementNode, b: PlacementNode): boolean {
  for (const kind of SPREAD_KINDS)
    if (domainOf(a.labels, kind) !== domainOf(b.labels, kind)) return false;
  return true;
}

/** The replicas per model a spread domain holds (a view), made on first use and shared by its nodes. */
export function domainCounts(fleet: Fleet, domain: string): DomainCounts {
  let counts = fleet.domainModelCounts.get(domain);
  if (!counts)
    fleet.domainModelCounts.set(domain, (counts = new DomainCounts(domain, fleet.domainsByModel)));
  return counts;
}

/** A spread domain's mark (see NearModel), made on first use and shared by its nodes. */
export function domainMark(fleet: Fleet, domain: string): DomainMark {
  let mark = fleet.domainMarks.get(domain);
  if (!mark) fleet.domainMarks.set(domain, (mark = { stamp: 0, at: 0, count: 0 }));
  return mark;
}

/**
 * Counts a replica once in each rack and PDU its shards are in. A replica on one node needs no
 * set to count each domain once (a node names each kind once), and most replicas are on one node:
 * a set per placement was a large part of what noting one allocated.
 */
export function noteSpread(
  fleet: Fleet,
  replica: ExistingReplica,
  usages?: readonly NodeUsage[],
): void {
  const only = replica.shards.length === 1 ? replica.shards[0] : undefined;
  if (only !== undefined) {
    // The node's own marks for its domains are the fleet's: no lookup by the domain's name.
    const known = usages?.[0];
    const usage = isRecordOf(known, only.nodeId) ? known : fleet.byId.get(only.nodeId);
    if (usage === undefined) return;
    const domains = usage.spreadDomains;
    for (let at = 0; at < domains.length; at += 1)
      noteDomain(fleet, domains[at] as string, usage.spreadMarks[at] as DomainMark, replica.model);
    return;
  }
  const domains = new Set<string>();
  for (const shard of replica.shards)
    for (const domain of fleet.byId.get(shard.nodeId)?.spreadDomains ?? NO_DOMAINS)
      domains.add(domain);
  for (const domain of domains) noteDomain(fleet, domain, domainMark(fleet, domain), replica.model);
}

function noteDomain(fleet: Fleet, domain: string, mark: DomainMark, model: string): void {
  const serial = fleet.near.model === model ? fleet.near.serial : undefined;
  countInDomain(fleet.domainsByModel, model, domain, mark, serial);
}

/**
 * Replicas of the model in the node's rack plus those in its PDU: the spread score term. A domain
 * whose mark says it holds none of the model (see NearModel) is not read: the score asks this of
 * every node a search weighs, most hold none, and their counts' maps were the lookup that cost.
 */
export function nearCount(fleet: Fleet, usage: NodeUsage, model: string): number {
  const marks = usage.spreadMarks;
  const serial = markNear(fleet, model);
  let total = 0;
  for (let at = 0; at < marks.length; at += 1) {
    const mark = marks[at] as DomainMark;
    if (mark.stamp === serial) total += mark.count;
  }
  return total;
}

/** The serial the model's domains are marked with, marking them first if another model's are. */
function markNear(fleet: Fleet, model: string): number {
  const near = fleet.near;
  if (near.model === model) return near.serial;
  near.model = model;
  near.serial += 1;
  const kept = fleet.domainsByModel.get(model);
  if (kept === undefined) return near.serial;
  for (let at = 0; at < kept.size; at += 1) {
    const mark = kept.marks[at] as DomainMark;
    mark.stamp = near.serial;
    mark.at = at;
    mark.count = kept.counts[at] as number;
  }
  return near.serial;
}

/** Whether the node's rack or PDU holds a replica of the model. */
export function isNearModel(fleet: Fleet, usage: NodeUsage, model: string): boolean {
  const marks = usage.spreadMarks;
  if (marks.length === 0) return false;
  const serial = markNear(fleet, model);
  for (let at = 0; at < marks.length; at += 1)
    if ((marks[at] as DomainMark).stamp === serial) return true;
  return false;
}

/**
 * The nodes nodesNearModel found, in a list every call writes over (read it before the next
 * call): a Set per search was a record, a table and an iterator per search, and a loop over
 * either lists or Sets was one that V8 could not specialise, which made a record per node read.
 */
export interface NearNodes {
  /** The first `size` are the nodes; the slots after, emptied by letGoNear. */
  nodes: (NodeUsage | undefined)[];
  size: number;
}

const NEAR: NearNodes = { nodes: [], size: 0 };
/** Which call last listed a node: the node is listed once however many of its domains hold the model. */
let nearVisit = 0;

/**
 * Every node in a rack or PDU holding the model, each once, in the order the domains and their
 * nodes come (the order a Set built from them iterates); none when no domain holds it.
 */
export function nodesNearModel(fleet: Fleet, model: string): NearNodes | undefined {
  const kept = fleet.domainsByModel.get(model);
  if (!kept) return undefined;
  nearVisit += 1;
  const near = NEAR;
  near.size = 0;
  for (let at = 0; at < kept.size; at += 1) {
    const members = fleet.nodesByDomain.get(kept.domains[at] as string);
    if (members === undefined) continue;
    for (let each = 0; each < members.length; each += 1) {
      const usage = members[each] as NodeUsage;
      if (usage.nearVisit === nearVisit) continue;
      usage.nearVisit = nearVisit;
      near.nodes[near.size] = usage;
      near.size += 1;
    }
  }
  return near;
}

/** Empties the list once read, so it keeps no fleet's records alive past the search. */
export function letGoNear(near: NearNodes): void {
  near.nodes.fill(undefined, 0, near.size);
  near.size = 0;
}

/** "rack r12 already holds 1 replica of m" for each of the node's domains holding the model. */
export function spreadReasons(fleet: Fleet, usage: NodeUsage, model: string): string[] {
  return usage.spreadDomains.flatMap((domain) => {
    const count = fleet.domainModelCounts.get(domain)?.get(model) ?? 0;
    if (count === 0) return [];
    const [kind, value] = domain.split("=");
    const noun = kind === "pdu" ? "PDU" : (kind ?? "");
    return [
      `${noun} ${value ?? ""} already holds ${count} replica${count === 1 ? "" : "s"} of ${model}; replicas spread across racks and PDUs`,
    ];
  });
}
