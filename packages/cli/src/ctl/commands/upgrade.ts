// `llmgw ctl upgrade VERSION`: the control plane first, then one node at a time in name order. A
// node that is not back on the version, ready, with its replicas, within the timeout stops the run
// before the next node, so a bad release reaches one machine; running it again resumes.
import type { ApiClient } from "../client";
import { parseDurationSeconds, required, UsageError } from "../args";
import { printJson, type Command, type CommandContext } from "./command";
import {
  controlPlaneProgress,
  elapsedText,
  nodeProgress,
  nodeRefusal,
  nodesToUpgrade,
  waitForProgress,
  type Clock,
} from "./upgrade-steps";

const UPGRADE_USAGE = "upgrade VERSION [--timeout 10m] [--json]";
const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const POLL_MS = 1_000;

export interface UpgradeDeps {
  api: Pick<ApiClient, "upgrade">;
  /** The version /healthz reports, or null while the control plane does not answer. */
  healthVersion(): Promise<string | null>;
  clock: Clock;
  line(text: string): void;
}

/** One line per step; `ok` false when the run stopped, with the step that stopped it last. */
export interface UpgradeStep {
  step: string;
  from: string;
  ok: boolean;
  detail: string;
}

async function upgradeControlPlane(
  deps: UpgradeDeps,
  version: string,
  timeoutMs: number,
): Promise<UpgradeStep> {
  const plan = await deps.api.upgrade.plan.query();
  const from = plan.serverVersion;
  if (from === version)
    return { step: "control plane", from, ok: true, detail: `already on ${version}` };
  if (plan.serverRefusal)
    return { step: "control plane", from, ok: false, detail: plan.serverRefusal };
  const readyBefore = plan.nodes.filter((n) => n.isConnected && n.isReady);
  const startedMs = deps.clock.nowMs();
  await deps.api.upgrade.controlPlane.mutate({ version });
  const progress = await waitForProgress(
    async () => {
      const health = await deps.healthVersion();
      const now = health === null ? null : await deps.api.upgrade.plan.query();
      return controlPlaneProgress(version, health, readyBefore, now);
    },
    deps.clock,
    timeoutMs,
    POLL_MS,
  );
  const took = elapsedText(deps.clock.nowMs() - startedMs);
  if (!progress.isDone)
    return { step: "control plane", from, ok: false, detail: `${progress.why} within ${took}` };
  return {
    step: "control plane",
    from,
    ok: true,
    detail: `on ${version}, ${readyBefore.length} ready nodes back (${took})`,
  };
}

async function upgradeNode(
  deps: UpgradeDeps,
  node: Awaited<ReturnType<UpgradeDeps["api"]["upgrade"]["plan"]["query"]>>["nodes"][number],
  version: string,
  timeoutMs: number,
): Promise<UpgradeStep> {
  const base = { step: node.name, from: node.agentVersion };
  const refusal = nodeRefusal(node);
  if (refusal) return { ...base, ok: false, detail: refusal };
  const startedMs = deps.clock.nowMs();
  try {
    await deps.api.upgrade.node.mutate({ nodeId: node.id, version });
  } catch (error) {
    return { ...base, ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
  const progress = await waitForProgress(
    async () => {
      const now = (await deps.api.upgrade.plan.query()).nodes.find((n) => n.id === node.id);
      return nodeProgress(version, node, now);
    },
    deps.clock,
    timeoutMs,
    POLL_MS,
  );
  const took = elapsedText(deps.clock.nowMs() - startedMs);
  if (!progress.isDone) return { ...base, ok: false, detail: `${progress.why} within ${took}` };
  return {
    ...base,
    ok: true,
    detail: `on ${version}, ready, ${node.readyReplicas} replicas ready as before (${took})`,
  };
}

/** The run: the steps taken, stopping at the first that failed. */
export async function runUpgrade(
  deps: UpgradeDeps,
  version: string,
  timeoutMs: number,
): Promise<UpgradeStep[]> {
  const steps: UpgradeStep[] = [];
  const report = (step: UpgradeStep) => {
    steps.push(step);
    deps.line(
      `${step.step}: ${step.from} → ${version}: ${step.ok ? "done" : "STOPPED"}, ${step.detail}`,
    );
    return step.ok;
  };
  const plan = await deps.api.upgrade.plan.query();
  if (!plan.releases.some((r) => r.version === version)) {
    report({
      step: "release",
      from: plan.serverVersion,
      ok: false,
      detail: `${version} is not stored; add it with llmgw ctl release add FILE`,
    });
    return steps;
  }
  if (!report(await upgradeControlPlane(deps, version, timeoutMs))) return steps;
  const nodes = nodesToUpgrade((await deps.api.upgrade.plan.query()).nodes, version);
  if (nodes.length === 0) deps.line(`every node already runs ${version}`);
  for (const node of nodes) {
    if (!report(await upgradeNode(deps, node, version, timeoutMs))) return steps;
  }
  return steps;
}

async function upgradeCommand(ctx: CommandContext): Promise<number> {
  const version = required(ctx.args, 0, "VERSION", UPGRADE_USAGE);
  if (ctx.args.length > 1)
    throw new UsageError(`upgrade takes one VERSION; usage: ${UPGRADE_USAGE}`);
  const timeoutMs =
    ctx.values.timeout === undefined
      ? DEFAULT_TIMEOUT_MS
      : parseDurationSeconds("timeout", ctx.values.timeout) * 1_000;
  const steps = await runUpgrade(
    {
      api: ctx.api,
      healthVersion: () => healthVersion(ctx.target.server),
      clock: { nowMs: ctx.nowMs, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) },
      line: (text) => (ctx.values.json ? undefined : ctx.write(`${text}\n`)),
    },
    version,
    timeoutMs,
  );
  const ok = steps.every((step) => step.ok);
  if (ctx.values.json) printJson(ctx, { version, ok, steps });
  return ok ? 0 : 1;
}

async function healthVersion(server: string): Promise<string | null> {
  try {
    const res = await fetch(`${server}/healthz`, { signal: AbortSignal.timeout(5_000) });
    const body = (await res.json()) as { version?: unknown };
    return res.ok && typeof body.version === "string" ? body.version : null;
  } catch {
    return null;
  }
}

export const upgradeCommands: Record<string, Command> = {
  upgrade: {
    usage: UPGRADE_USAGE,
    summary: "rolling upgrade to a stored release: the control plane, then one node at a time",
    flags: ["timeout", "json"],
    takesArguments: true,
    run: upgradeCommand,
  },
};
