// Ending an engine's process group, and the words a replica fails with when its engine ends.
// Engines fork workers that hold the GPU, so the whole group is signalled, never just the pid.
import type { ReplicaDeps } from "./replica-deps";

type StopDeps = Pick<ReplicaDeps, "processes" | "nowMs" | "sleep" | "stopGraceMs">;

const KILL_WAIT_MS = 5000;
const GROUP_POLL_MS = 50;

/**
 * SIGTERM to the group, SIGKILL once `stopGraceMs` has passed with a member still alive.
 * `onKill` hears why the SIGKILL was needed.
 */
export async function terminateProcessGroup(
  pgid: number,
  deps: StopDeps,
  onKill: (why: string) => void,
): Promise<void> {
  if (pgid <= 1) return;
  deps.processes.signalGroup(pgid, "SIGTERM");
  if (await waitGroupGone(pgid, deps, deps.stopGraceMs)) return;
  onKill(`still running ${deps.stopGraceMs} ms after SIGTERM`);
  deps.processes.signalGroup(pgid, "SIGKILL");
  await waitGroupGone(pgid, deps, KILL_WAIT_MS);
}

async function waitGroupGone(pgid: number, deps: StopDeps, timeoutMs: number): Promise<boolean> {
  const deadline = deps.nowMs() + timeoutMs;
  while (deps.processes.isGroupAlive(pgid)) {
    if (deps.nowMs() > deadline) return false;
    await deps.sleep(GROUP_POLL_MS);
  }
  return true;
}

/** "engine exited with code 1 before it was ready", with the engine's last log lines after it. */
export function engineExitMessage(
  code: number | undefined,
  signal: string,
  wasReady: boolean,
  lastLines: readonly string[],
): string {
  const how =
    code !== undefined
      ? `with code ${code}`
      : signal !== ""
        ? `on ${signal}`
        : "(adopted, exit status unknown)";
  return withLastLines(
    `engine exited ${how} ${wasReady ? "after" : "before"} it was ready`,
    lastLines,
  );
}

export function withLastLines(message: string, lastLines: readonly string[]): string {
  return lastLines.length > 0 ? `${message}; last lines:\n${lastLines.join("\n")}` : message;
}
