// An agent restart: a second supervisor over the same data dir adopts the live engine the first
// one started (same pid, never restarted), reports it, and DesiredReplicas keeps or stops it.
import { must } from "@llmgw/domain";
import { ReplicaPhase } from "@llmgw/proto";
import { waitFor } from "@llmgw/testing";
import { afterEach, describe, expect, it } from "vitest";
import { killStartedEngines, makeSupervisor, startSpec } from "../../test/replica-harness";
import { realProcessOps } from "./engine-process";

afterEach(killStartedEngines);

describe("adoption across an agent restart", () => {
  it("adopts the live engine without restarting it, then stops what DesiredReplicas leaves out", async () => {
    const first = makeSupervisor();
    const kept = first.supervisor.start(startSpec({ replicaId: "keep" }));
    const dropped = first.supervisor.start(startSpec({ replicaId: "drop" }));
    await waitFor(() => kept.phase === ReplicaPhase.READY && dropped.phase === ReplicaPhase.READY, {
      timeoutMs: 30_000,
      what: "both READY",
    });
    const keptPid = kept.pid;
    const droppedPid = dropped.pid;
    await first.supervisor.detach();

    const second = makeSupervisor({ dataDir: first.dataDir });
    await second.supervisor.recover();
    const adopted = second.supervisor.statuses();
    expect(
      adopted
        .map((status) => [status.replicaId, ReplicaPhase[status.phase ?? 0], status.pid])
        .sort(),
    ).toEqual([
      ["drop", "READY", droppedPid],
      ["keep", "READY", keptPid],
    ]);
    expect(adopted.find((status) => status.replicaId === "keep")?.message).toMatch(
      /^adopted: engine pid \d+ kept running across an agent restart$/,
    );
    const keptAgain = must(second.supervisor.get("keep"), "the adopted replica keep");
    // Its log ring is filled again from the file the engine still writes.
    expect(keptAgain.logTail?.lastLines(50).join("\n")).toContain("sim-engine: listening");

    await second.supervisor.applyDesired([startSpec({ replicaId: "keep" })]);
    expect(second.supervisor.get("keep")?.pid).toBe(keptPid);
    expect(second.supervisor.get("drop")).toBeUndefined();
    expect(realProcessOps.isGroupAlive(droppedPid)).toBe(false);
    expect(realProcessOps.isAlive(keptPid)).toBe(true);
    expect(
      second.statuses.some(
        (status) => status.replicaId === "drop" && status.phase === ReplicaPhase.STOPPED,
      ),
    ).toBe(true);

    // An adopted engine that dies is noticed by polling (it is not this agent's child).
    realProcessOps.signalGroup(keptPid, "SIGKILL");
    await waitFor(() => keptAgain.phase === ReplicaPhase.FAILED, {
      timeoutMs: 10_000,
      what: "adopted engine FAILED",
    });
    expect(keptAgain.message).toMatch(
      /^engine exited \(adopted, exit status unknown\) after it was ready/,
    );
    await second.supervisor.detach();

    // A third agent finds nothing alive to adopt.
    const third = makeSupervisor({ dataDir: first.dataDir });
    await third.supervisor.recover();
    expect(third.supervisor.statuses()).toEqual([]);
  });
});
