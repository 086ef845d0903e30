// Waiting for the console benchmark's fleet to settle: every node ready and every replica the
// models ask for ready. It polls `status.get` (a few KiB) rather than the whole-fleet lists, which
// at 2,000 nodes are megabytes a look and loaded the server the run was waiting on; when the wait
// fails it says what the replica book held and why replicas were stopped, from one full list.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { waitFor } from "@llmgw/testing";
import type { adminApi } from "../agents/fleet";

type Api = Awaited<ReturnType<typeof adminApi>>;

export interface ReadyTarget {
  nodes: number;
  replicas: number;
}

const LOOK_INTERVAL_MS = 5_000;
const READY_TIMEOUT_MS = 900_000;
const REASONS_SHOWN = 4;
/** Every this many looks the log also says what the replica book holds (one full list). */
const LOOKS_PER_BOOK = 12;

/** Replicas by phase and the commonest reasons given for stopping them, in one line. */
async function describeBook(api: Api): Promise<string> {
  const replicas = await api.replicas.list.query({});
  const phases = new Map<string, number>();
  const reasons = new Map<string, number>();
  for (const replica of replicas) {
    phases.set(replica.phase, (phases.get(replica.phase) ?? 0) + 1);
    if (replica.phase !== "stopped") continue;
    // Node names vary per replica; the reason's shape is what tells a cause apart.
    const reason = replica.message.replace(/node \S+/g, "node …");
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const byPhase = [...phases].map(([phase, count]) => `${count} ${phase}`).join(", ");
  const top = [...reasons]
    .sort((a, b) => b[1] - a[1])
    .slice(0, REASONS_SHOWN)
    .map(([reason, count]) => `${count} × "${reason}"`);
  const stopped = top.length > 0 ? `; stopped because: ${top.join("; ")}` : "";
  return `the book holds ${replicas.length} replicas (${byPhase})${stopped}`;
}

/**
 * Resolves once the server reports `target.nodes` nodes ready and `target.replicas` replicas
 * ready; throws with what it saw last and what the replica book held otherwise.
 */
export async function waitForReady(
  api: Api,
  target: ReadyTarget,
  log: (line: string) => void,
  standInStallMs: () => number,
): Promise<void> {
  let last = "no answer yet";
  let looks = 0;
  // The stand-ins heartbeat from their own thread (standInStallMs: a stall there is a heartbeat
  // late at the server); this thread drives Chromium, where a stall delays the pages' clicks.
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  try {
    await waitFor(
      async () => {
        looks += 1;
        if (looks % LOOKS_PER_BOOK === 0) log(`console bench: ${await describeBook(api)}`);
        const status = await api.status.get.query();
        const waiting = status.parked.length + status.unplaceable.length;
        last =
          `${status.nodesReady} of ${target.nodes} nodes ready (${status.nodesUnreachable} unreachable), ` +
          `${status.replicasReady} of ${target.replicas} replicas ready (${status.replicasDesired} desired)` +
          (waiting > 0
            ? `, ${status.parked.length} models parked, ${status.unplaceable.length} unplaceable`
            : "");
        const stallMs = delay.max / 1e6;
        delay.reset();
        log(
          `console bench: waiting for the fleet: ${last}; longest stall ${standInStallMs().toFixed(0)} ms in the stand-ins' thread, ${stallMs.toFixed(0)} ms in the main one`,
        );
        return status.nodesReady >= target.nodes && status.replicasReady >= target.replicas;
      },
      {
        what: `${target.nodes} nodes and ${target.replicas} replicas ready`,
        timeoutMs: READY_TIMEOUT_MS,
        intervalMs: LOOK_INTERVAL_MS,
      },
    );
  } catch (error) {
    const book = await describeBook(api).catch((e: unknown) => `the book unread: ${String(e)}`);
    throw new Error(`${String(error)} (at the last look: ${last}; ${book})`);
  } finally {
    delay.disable();
  }
}
