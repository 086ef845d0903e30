// What operators set on the fleet's place in the building, held in memory so placement reads it
// on every pass without asking the store: labels laid over the agents' own, cordoned and draining
// nodes, held domains. The facility service writes the store first and this after; the server
// fills it from the store at start.
import { effectiveLabels, type Domain } from "@llmgw/domain";

export type CordonState = "cordoned" | "draining";

export interface FacilityHold extends Domain {
  isDraining: boolean;
  heldBy: string;
  heldAtMs: number;
}

export class FacilityOverlay {
  private readonly labelsByNode = new Map<string, Record<string, string>>();
  private readonly cordonByNode = new Map<string, CordonState>();
  private holdList: FacilityHold[] = [];
  private budgetList: { domain: string; watts: number }[] = [];
  private changes = 0;

  /**
   * Moves on with every change made here, so a node record made from the overlay can be kept
   * while this stays the same (KeptNodes).
   */
  get version(): number {
    return this.changes;
  }

  /** facility.budgets from the server's settings: placement refuses what would pass them. */
  setBudgets(budgets: readonly { domain: string; watts: number }[]): void {
    this.budgetList = [...budgets];
    this.changes += 1;
  }

  /** The budgets of the domains a node with these labels is in. */
  budgetsFor(labels: Readonly<Record<string, string>>): { domain: string; watts: number }[] {
    return this.budgetList.filter((budget) => {
      const [kind = "", value] = budget.domain.split("=");
      return labels[`llmgw.io/${kind}`] === value;
    });
  }

  /** The store's labels for a node; empty when it has none. */
  storedLabels(nodeId: string): Record<string, string> {
    return { ...(this.labelsByNode.get(nodeId) ?? {}) };
  }

  setLabels(nodeId: string, labels: Record<string, string>): void {
    if (Object.keys(labels).length === 0) this.labelsByNode.delete(nodeId);
    else this.labelsByNode.set(nodeId, { ...labels });
    this.changes += 1;
  }

  /** The agent's labels with the store's over them: what placement and every view read. */
  labelsOf(nodeId: string, agentLabels: Readonly<Record<string, string>>): Record<string, string> {
    return effectiveLabels(agentLabels, this.labelsByNode.get(nodeId));
  }

  cordonOf(nodeId: string): CordonState | null {
    return this.cordonByNode.get(nodeId) ?? null;
  }

  setCordon(nodeId: string, state: CordonState | null): void {
    if (state === null) this.cordonByNode.delete(nodeId);
    else this.cordonByNode.set(nodeId, state);
    this.changes += 1;
  }

  holds(): readonly FacilityHold[] {
    return this.holdList;
  }

  setHolds(holds: readonly FacilityHold[]): void {
    this.holdList = [...holds];
    this.changes += 1;
  }
}
