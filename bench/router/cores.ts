// Where the benchmark's processes run. On a machine of a few cores, a load generator, an engine and
// a gateway left to the scheduler take turns on every core, so a gateway's req/s says as much about
// how the kernel spread the client as about the gateway. With taskset and at least two cores, the
// cores are split in two: the benchmark's own process (the load generator's worker, the stand-in
// agents), the engines and the bare server on the first half; every measured gateway (llmgw, both
// servers; the bare proxies; Portkey) on the second. Every target then sees the same client and the
// same engine on cores of their own, and a gateway's hop has the other half to itself, as it would
// on a machine of its own. Without taskset (or on one core) nothing is pinned and the run says so.
import { execFileSync } from "node:child_process";
import { cpus } from "node:os";

export interface CorePlan {
  /** taskset's list for the client, the engines and the bare server, e.g. "0". */
  client: string;
  /** taskset's list for the gateways under test, e.g. "1". */
  gateways: string;
}

/** How a core count splits: the first half (rounded up) to the client and the engines. */
function splitCores(count: number): CorePlan | null {
  if (count < 2) return null;
  const clientCount = Math.ceil(count / 2);
  const list = (from: number, to: number) => (to - from === 1 ? `${from}` : `${from}-${to - 1}`);
  return { client: list(0, clientCount), gateways: list(clientCount, count) };
}

function hasTaskset(): boolean {
  try {
    execFileSync("taskset", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Pins this process (all its threads; workers started later inherit it) to the client's cores and
 * answers the plan, or null where it cannot pin (no taskset, one core).
 */
export function pinBenchmark(): CorePlan | null {
  const plan = process.platform === "linux" && hasTaskset() ? splitCores(cpus().length) : null;
  if (plan)
    execFileSync("taskset", ["-a", "-pc", plan.client, String(process.pid)], { stdio: "ignore" });
  return plan;
}

/** The command line that starts `command` on `cores` (taskset execs it: the pid stays the same). */
export function onCores(
  cores: string | null,
  command: string,
  args: readonly string[],
): [string, string[]] {
  return cores === null ? [command, [...args]] : ["taskset", ["-c", cores, command, ...args]];
}

/** The run's description of where its processes ran. */
export function describeCores(plan: CorePlan | null): string {
  if (!plan)
    return "Nothing is pinned (no taskset or one core): the client, the engines and the gateways share every core.";
  return `Pinned with taskset: the load generator (a worker thread of the benchmark's process), the engines and the bare server on core ${plan.client}, every gateway under test (llmgw, the bare proxy, Portkey) on core ${plan.gateways}.`;
}
