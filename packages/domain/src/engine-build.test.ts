import { describe, expect, it } from "vitest";
import {
  isEngineBuildChoice,
  resolveEngineBuild,
  vllmInstallSource,
  withheldEngines,
} from "./engine-build";

const gpuNode = (driverVersion: string) => ({ driverVersion, gpuCount: 2 });

describe("resolveEngineBuild", () => {
  it("picks CUDA 13 from driver 580 and CUDA 12.9 below it under auto", () => {
    expect(resolveEngineBuild("auto", gpuNode("580.65.06")).build).toBe("cu13");
    expect(resolveEngineBuild("auto", gpuNode("590.48.01")).build).toBe("cu13");
    expect(resolveEngineBuild("auto", gpuNode("579.99")).build).toBe("cu129");
    expect(resolveEngineBuild("auto", gpuNode("575.51.03")).build).toBe("cu129");
  });

  it("installs nothing under auto for a driver too old, an unknown one, or no cards", () => {
    const old = resolveEngineBuild("auto", gpuNode("570.133.20"));
    expect(old).toMatchObject({ build: "none" });
    expect(old.reason).toContain("575");
    expect(resolveEngineBuild("auto", gpuNode("")).build).toBe("none");
    expect(resolveEngineBuild("auto", { driverVersion: "", gpuCount: 0 }).reason).toContain(
      "no GPU",
    );
  });

  it("keeps an explicit choice whatever the driver says", () => {
    expect(resolveEngineBuild("cu129", gpuNode("590.48.01")).build).toBe("cu129");
    expect(resolveEngineBuild("cu13", gpuNode("575.51.03")).build).toBe("cu13");
    expect(resolveEngineBuild("none", gpuNode("590.48.01")).build).toBe("none");
  });
});

describe("the build's effect", () => {
  it("names PyTorch's index for the build, and nothing for none", () => {
    expect(vllmInstallSource("cu129")).toContain("download.pytorch.org/whl/cu129");
    expect(vllmInstallSource("none")).toBe("");
  });

  it("withholds vLLM under none unless it is already on the node's PATH", () => {
    expect(withheldEngines("none", ["vllm", "llamacpp"], [])).toEqual(["vllm"]);
    expect(withheldEngines("none", ["vllm"], ["vllm"])).toEqual([]);
    expect(withheldEngines("cu13", ["vllm"], [])).toEqual([]);
  });

  it("accepts only the four choices", () => {
    expect(isEngineBuildChoice("cu129")).toBe(true);
    expect(isEngineBuildChoice("cu12")).toBe(false);
  });
});
