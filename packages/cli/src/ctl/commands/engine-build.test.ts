import { describe, expect, it } from "vitest";
import { engineBuildText } from "./engine-build";

describe("engineBuildText", () => {
  it("says who chose the build and what the node applies, with what it withholds", () => {
    const text = engineBuildText({
      name: "gpu-1",
      engineBuild: {
        choice: "none",
        setBy: "alice",
        setAt: "2026-12-02T10:00:00.000Z",
        applied: {
          choice: "none",
          build: "none",
          reason: "the build is set to none: no GPU engine is installed",
          installSource: "",
          withheldEngines: ["vllm"],
        },
      },
    });
    expect(text).toContain("engine build none (set by alice at 2026-12-02T10:00:00.000Z)");
    expect(text).toContain("applied: none (the build is set to none");
    expect(text).toContain("not offered: vllm");
    expect(text).not.toContain("installs:");
  });

  it("says the default and an unknown application plainly", () => {
    const text = engineBuildText({
      name: "gpu-2",
      engineBuild: { choice: "auto", setBy: null, setAt: null, applied: null },
    });
    expect(text).toContain("engine build auto (default; nobody chose)");
    expect(text).toContain("applied: unknown");
  });
});
