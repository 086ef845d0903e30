import type { NodeView } from "@llmgw/api";
import { describe, expect, it } from "vitest";
import { nodesTable } from "./nodes-view";

function cpuNode(engineInstalls: NodeView["engineInstalls"], engines: string[] = []): NodeView {
  return {
    id: "id-1",
    name: "cpu-1",
    state: "ready",
    simulated: false,
    simulationProfile: null,
    agentVersion: "0.1.0",
    labels: {},
    storedLabels: {},
    cordon: null,
    engines,
    engineInstalls,
    engineBuild: { choice: "auto", setBy: null, setAt: null, applied: null },
    features: [],
    firstSeenAt: "2026-12-02T10:00:00.000Z",
    lastSeenAt: "2026-12-02T10:00:00.000Z",
    cpu: { model: "x86", cores: 2, utilizationPercent: null },
    memory: { bytesTotal: 8e9, bytesUsed: null },
    disk: { bytesTotal: 1e11, bytesFree: null },
    network: { receiveBytesPerSecond: null, transmitBytesPerSecond: null },
    heartbeatAgeSeconds: null,
    os: "linux",
    arch: "x64",
    driverVersion: null,
    gpus: [],
  };
}

const install = (state: "installing" | "ready" | "failed", logTail: string[] = []) => ({
  engine: "llamacpp",
  version: "v0.5.0-de3ff81",
  state,
  message: state === "failed" ? "cmake --build failed (exit status 1)" : "building",
  logTail,
  changedAt: "2026-12-02T10:00:00.000Z",
});

const NOW_MS = Date.parse("2026-12-02T10:00:05.000Z");

describe("ctl nodes", () => {
  it("shows an install in progress in the ENGINES column", () => {
    const table = nodesTable([cpuNode([install("installing")])], NOW_MS);
    expect(table).toMatch(/ENGINES/);
    expect(table).toContain("llamacpp (installing)");
  });

  it("shows a ready install as an offered engine", () => {
    const table = nodesTable([cpuNode([install("ready")], ["llamacpp"])], NOW_MS);
    expect(table).toContain("llamacpp");
    expect(table).not.toContain("(ready)");
  });

  it("names a failed install under the table with its last log lines", () => {
    const lines = Array.from({ length: 8 }, (_, i) => `line ${i}`);
    const table = nodesTable([cpuNode([install("failed", lines)])], NOW_MS);
    expect(table).toContain("llamacpp (failed)");
    expect(table).toContain(
      "cpu-1: llamacpp v0.5.0-de3ff81 install failed: cmake --build failed (exit status 1)",
    );
    expect(table).toContain("  line 7");
    expect(table).not.toContain("line 2");
  });
});
