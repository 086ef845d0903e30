// The decisions of `llmgw ctl upgrade`, as pure functions of what the control plane reports: which
// nodes to take and in what order, and whether the control plane or a node is back. Each "not yet"
// carries the sentence the run prints if the timeout ends the wait.
import type { UpgradePlan, UpgradePlanNode } from "@llmgw/api";

export type Progress = { isDone: true } | { isDone: false; why: string };

const DONE: Progress = { isDone: true };

/** Nodes still to upgrade, in name order; those already on the version are skipped (a resume). */
export function nodesToUpgrade(
  nodes: readonly UpgradePlanNode[],
  version: string,
): UpgradePlanNode[] {
  return nodes
    .filter((node) => node.agentVersion !== version)
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
}

/** Why this node cannot be sent an upgrade at all, or null when it can. */
export function nodeRefusal(node: UpgradePlanNode): string | null {
  if (!node.isConnected) return "is not connected";
  if (!node.canUpgrade) {
    return `its agent (version ${node.agentVersion}) cannot upgrade itself; upgrade it by hand once`;
  }
  return null;
}

/**
 * The restarted control plane is back when /healthz reports the version and every node that was
 * ready before it restarted is connected and ready again.
 */
export function controlPlaneProgress(
  version: string,
  healthVersion: string | null,
  readyBefore: readonly UpgradePlanNode[],
  now: UpgradePlan | null,
): Progress {
  if (healthVersion === null || now === null) return { isDone: false, why: "did not answer again" };
  if (healthVersion !== version)
    return { isDone: false, why: `came back on version ${healthVersion}` };
  const missing = readyBefore.filter(
    (before) => !now.nodes.some((n) => n.id === before.id && n.isConnected && n.isReady),
  );
  if (missing.length > 0) {
    return {
      isDone: false,
      why: `${missing.map((n) => n.name).join(", ")} did not reconnect ready`,
    };
  }
  return DONE;
}

/** A node is done when it is back on the version, ready, with as many ready replicas as before. */
export function nodeProgress(
  version: string,
  before: UpgradePlanNode,
  now: UpgradePlanNode | undefined,
): Progress {
  if (!now?.isConnected) return { isDone: false, why: "did not reconnect" };
  if (now.agentVersion !== version)
    return { isDone: false, why: `came back on version ${now.agentVersion}` };
  if (!now.isReady) return { isDone: false, why: "is connected but not ready" };
  if (now.readyReplicas < before.readyReplicas) {
    return { isDone: false, why: `${now.readyReplicas} of ${before.readyReplicas} replicas ready` };
  }
  return DONE;
}

/** `1m 05s`, `42s`: how long a step took, for the progress line. */
export function elapsedText(elapsedMs: number): string {
  const seconds = Math.round(elapsedMs / 1_000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}

export interface Clock {
  nowMs(): number;
  sleep(ms: number): Promise<void>;
}

/**
 * Asks `check` every `pollMs` until it is done or `timeoutMs` has passed; answers the last
 * progress, so a timeout names what was still missing. A check that throws (the control plane
 * restarting) counts as "not yet" with its message.
 */
export async function waitForProgress(
  check: () => Promise<Progress>,
  clock: Clock,
  timeoutMs: number,
  pollMs: number,
): Promise<Progress> {
  const deadlineMs = clock.nowMs() + timeoutMs;
  for (;;) {
    const progress = await check().catch((error: unknown): Progress => ({
      isDone: false,
      why: error instanceof Error ? error.message : String(error),
    }));
    if (progress.isDone || clock.nowMs() >= deadlineMs) return progress;
    await clock.sleep(pollMs);
  }
}
