// The soak's faults, chosen by a seeded schedule: one every `everyMs`, drawn from a shuffled bag of
// every kind so each kind comes once before any comes again (a short run still sees them all), and
// none in the last `settleMs`, which is left for the fleet to come back before the final checks.
// The same seed gives the same run, so a failure can be replayed.
import { seededRandom } from "@llmgw/domain";

export const FAULT_KINDS = [
  /** kill -9 an agent, started again a few seconds later, as its service manager would. */
  "kill-agent",
  /** kill -9 one engine process. */
  "kill-engine",
  /** SIGSTOP an agent for 5 s (a network blip), then SIGCONT. */
  "stop-agent",
  /** Restart PostgreSQL (down for 3 s). */
  "restart-store",
  /** An engine answers every request with 500 for 20 s. */
  "engine-errors",
  /** A node reports its disk full for 20 s (simulated nodes: their disk is simulated too). */
  "full-disk",
] as const;

type FaultKind = (typeof FAULT_KINDS)[number];

export interface ScheduledFault {
  atMs: number;
  kind: FaultKind;
  /** A number in [0, 1) that picks the target among those alive when the fault comes. */
  pick: number;
}

export function faultSchedule(options: {
  seed: number;
  durationMs: number;
  everyMs: number;
  settleMs: number;
}): ScheduledFault[] {
  const random = seededRandom(options.seed);
  const faults: ScheduledFault[] = [];
  let bag: FaultKind[] = [];
  for (let atMs = options.everyMs; atMs <= options.durationMs - options.settleMs;) {
    if (bag.length === 0) bag = shuffled(FAULT_KINDS, random);
    const kind = bag.pop() as FaultKind;
    faults.push({ atMs, kind, pick: random() });
    atMs += options.everyMs;
  }
  return faults;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The target `pick` chooses among `items`, or undefined when there are none. */
export function pickOne<T>(items: readonly T[], pick: number): T | undefined {
  return items[Math.min(items.length - 1, Math.floor(pick * items.length))];
}
