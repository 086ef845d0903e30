import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EngineBuildKeeper } from "./engine-build";
import { createLogger, LogRing } from "./log-ring";

function keeper(dataDir: string, onPath: string[] = [], driverVersion = "575.51.03") {
  const ring = new LogRing();
  const logger = createLogger({ ring, write: () => {}, nowMs: () => 0 });
  const offered = ["vllm", "llamacpp"];
  const kept = new EngineBuildKeeper({
    ...{ dataDir, onPath, logger },
    node: { driverVersion, gpuCount: 2 },
    offered: () => offered,
  });
  return { kept, ring };
}

describe("EngineBuildKeeper", () => {
  it("reports auto by the driver until told otherwise", () => {
    const { kept } = keeper(mkdtempSync(path.join(tmpdir(), "build-")));
    expect(kept.report()).toMatchObject({ choice: "auto", build: "cu129", withheldEngines: [] });
    expect(kept.report().installSource).toContain("whl/cu129");
  });

  it("keeps a choice across a restart of the agent, in its data directory", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "build-"));
    keeper(dataDir).kept.apply("none");
    expect(readFileSync(path.join(dataDir, "engine-build"), "utf8").trim()).toBe("none");
    const again = keeper(dataDir).kept.report();
    expect(again).toMatchObject({ choice: "none", build: "none", withheldEngines: ["vllm"] });
    expect(again.installSource).toBe("");
  });

  it("withholds no vLLM found on the node's PATH", () => {
    const { kept } = keeper(mkdtempSync(path.join(tmpdir(), "build-")), ["vllm"]);
    kept.apply("none");
    expect(kept.report().withheldEngines).toEqual([]);
  });

  it("refuses a word that is no build and keeps the one it had, saying so in its log", () => {
    const { kept, ring } = keeper(mkdtempSync(path.join(tmpdir(), "build-")));
    kept.apply("cu13");
    kept.apply("cu12");
    expect(kept.report()).toMatchObject({ choice: "cu13", build: "cu13" });
    expect(ring.snapshot(10).join("\n")).toContain("cu12");
  });
});
