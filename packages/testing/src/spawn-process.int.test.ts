import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cleanupAll } from "./cleanup-registry.ts";
import { autogroupNice, isProcessAlive, livingGroupMembers } from "./process-group.ts";
import { spawnProcess } from "./spawn-process.ts";
import { waitFor } from "./wait-for.ts";

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

/** Waits until both `sleep`s run (bash may or may not exec the last one) and returns every member. */
async function sleepingGroup(pid: number): Promise<number[]> {
  return waitFor(
    () => {
      const members = livingGroupMembers(pid);
      return members.filter((member) => commandOf(member) === "sleep").length === 2
        ? members
        : undefined;
    },
    { what: `two sleeps in process group ${pid}`, timeoutMs: 5_000, intervalMs: 20 },
  );
}

describe("spawnProcess", () => {
  it("stops the whole process group", async () => {
    const spawned = spawnProcess("bash", ["-c", "sleep 100 & sleep 100"], { name: "sleepers" });
    const members = await sleepingGroup(spawned.pid);
    expect(members).toContain(spawned.pid);
    expect(members.length).toBeGreaterThanOrEqual(2);
    const exit = await spawned.stop();
    expect(exit.signal).toBe("SIGTERM");
    for (const pid of members) expect(isProcessAlive(pid), `pid ${pid}`).toBe(false);
  });

  it("escalates to SIGKILL when SIGTERM is ignored", async () => {
    const spawned = spawnProcess(
      "bash",
      ["-c", "trap '' TERM; echo ready; sleep 100 & sleep 100 & wait"],
      {
        name: "stubborn",
        stopGraceMs: 300,
      },
    );
    await spawned.waitForOutput(/ready/, 5_000);
    const members = await sleepingGroup(spawned.pid);
    const exit = await spawned.stop();
    expect(exit.signal).toBe("SIGKILL");
    for (const pid of members) expect(isProcessAlive(pid), `pid ${pid}`).toBe(false);
  });

  it("captures stdout and stderr and matches output", async () => {
    const spawned = spawnProcess(
      "bash",
      ["-c", 'echo "listening on port $PORT"; echo oops >&2; sleep 100'],
      {
        name: "printer",
        env: { PORT: "4321" },
      },
    );
    const match = await spawned.waitForOutput(/listening on port (\d+)/, 5_000);
    expect(match[1]).toBe("4321");
    await waitFor(() => spawned.output().includes("oops"), {
      what: "stderr output",
      timeoutMs: 5_000,
    });
    await spawned.stop();
  });

  it("rejects waitForOutput when the process exits first, with its output", async () => {
    const spawned = spawnProcess("bash", ["-c", "echo config invalid; exit 3"], {
      name: "crasher",
    });
    await expect(spawned.waitForOutput(/listening/, 5_000)).rejects.toThrow(
      /process "crasher" exited \(code 3\) before printing \/listening\/; output:\nconfig invalid/,
    );
  });

  it("rejects waitForOutput on timeout", async () => {
    const spawned = spawnProcess("sleep", ["100"], { name: "silent" });
    await expect(spawned.waitForOutput(/never/, 100)).rejects.toThrow(
      /process "silent" did not within 100 ms print/,
    );
    await spawned.stop();
  });

  it("is stopped by cleanupAll", async () => {
    const spawned = spawnProcess("bash", ["-c", "sleep 100 & sleep 100"], { name: "leftover" });
    const members = await sleepingGroup(spawned.pid);
    await cleanupAll();
    for (const pid of members) expect(isProcessAlive(pid), `pid ${pid}`).toBe(false);
  });

  // A benchmark raises its own session's priority (autogroup nice -15); a detached child starts a
  // new autogroup at nice 0, so without this the server under measurement lost that priority.
  // Skipped only on a kernel built without autogroups (no /proc/self/autogroup to set or read).
  it.skipIf(!existsSync("/proc/self/autogroup"))(
    "runs the child in an autogroup of its own at the nice value asked for",
    async () => {
      const spawned = spawnProcess("sleep", ["100"], { name: "niced", autogroupNice: 4 });
      try {
        expect(readFileSync(`/proc/${spawned.pid}/autogroup`, "utf8")).not.toBe(
          readFileSync("/proc/self/autogroup", "utf8"),
        );
        expect(autogroupNice(spawned.pid)).toBe(4);
      } finally {
        await spawned.stop();
      }
    },
  );

  it("gives the child this process's autogroup nice value by default", async () => {
    const spawned = spawnProcess("sleep", ["100"], { name: "same priority" });
    try {
      expect(autogroupNice(spawned.pid)).toBe(autogroupNice("self"));
    } finally {
      await spawned.stop();
    }
  });
});
