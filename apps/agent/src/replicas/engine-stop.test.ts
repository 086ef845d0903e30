import { describe, expect, it } from "vitest";
import type { ProcessOps } from "./engine-process";
import { engineExitMessage, terminateProcessGroup, withLastLines } from "./engine-stop";

/** A process group that dies on the signals listed in `diesOn`; time advances only through sleep. */
function fakeGroup(diesOn: readonly NodeJS.Signals[]) {
  let nowMs = 0;
  let isAlive = true;
  const signals: NodeJS.Signals[] = [];
  const processes: ProcessOps = {
    spawn: () => {
      throw new Error("not used");
    },
    isAlive: () => isAlive,
    isGroupAlive: () => isAlive,
    signalGroup: (_pgid, signal) => {
      signals.push(signal);
      if (diesOn.includes(signal)) isAlive = false;
    },
    pickPort: () => Promise.resolve(0),
  };
  const deps = {
    processes,
    nowMs: () => nowMs,
    sleep: (ms: number) => {
      nowMs += ms;
      return Promise.resolve();
    },
    stopGraceMs: 1000,
  };
  return { deps, signals };
}

describe("terminateProcessGroup", () => {
  it("stops at SIGTERM when the group leaves in time", async () => {
    const { deps, signals } = fakeGroup(["SIGTERM"]);
    const kills: string[] = [];
    await terminateProcessGroup(42, deps, (why) => kills.push(why));
    expect(signals).toEqual(["SIGTERM"]);
    expect(kills).toEqual([]);
  });

  it("sends SIGKILL after the grace and says why", async () => {
    const { deps, signals } = fakeGroup(["SIGKILL"]);
    const kills: string[] = [];
    await terminateProcessGroup(42, deps, (why) => kills.push(why));
    expect(signals).toEqual(["SIGTERM", "SIGKILL"]);
    expect(kills).toEqual(["still running 1000 ms after SIGTERM"]);
  });

  it("never signals pid 0 or 1 (no engine, or init)", async () => {
    const { deps, signals } = fakeGroup(["SIGTERM"]);
    await terminateProcessGroup(1, deps, () => undefined);
    expect(signals).toEqual([]);
  });
});

describe("engineExitMessage", () => {
  it("names the code, the signal or the unknown status of an adopted engine", () => {
    expect(engineExitMessage(1, "", false, [])).toBe(
      "engine exited with code 1 before it was ready",
    );
    expect(engineExitMessage(undefined, "SIGSEGV", true, [])).toBe(
      "engine exited on SIGSEGV after it was ready",
    );
    expect(engineExitMessage(undefined, "", true, ["oom"])).toBe(
      "engine exited (adopted, exit status unknown) after it was ready; last lines:\noom",
    );
  });

  it("adds the last lines only when there are some", () => {
    expect(withLastLines("failed", [])).toBe("failed");
    expect(withLastLines("failed", ["a", "b"])).toBe("failed; last lines:\na\nb");
  });
});
