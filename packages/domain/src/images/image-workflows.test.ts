import { describe, expect, it } from "vitest";
import { comfyuiSettingsSchema } from "./comfyui-settings";
import { imageWorkflows } from "./image-workflows";

const request = { prompt: "a lake", widthPx: 512, heightPx: 512, count: 2, seed: 100 };

function classes(graph: Record<string, { class_type: string }>): string[] {
  return Object.values(graph)
    .map((node) => node.class_type)
    .sort();
}

describe("image workflows", () => {
  it("builds flux-schnell with 4 steps, one graph per picture, seeds counting up", () => {
    const built = imageWorkflows(comfyuiSettingsSchema.parse({}), null, request);
    if (!built.ok) throw new Error(built.why);
    expect(built.graphs).toHaveLength(2);
    const [first, second] = built.graphs;
    expect(first?.["6"]?.inputs).toMatchObject({ steps: 4, seed: 100, cfg: 1 });
    expect(second?.["6"]?.inputs.seed).toBe(101);
    expect(first?.["5"]?.inputs).toMatchObject({ width: 512, height: 512 });
    expect(first?.["4"]?.inputs.text).toBe("a lake");
    expect(first?.["1"]?.inputs.unet_name).toBe("flux1-schnell.safetensors");
    expect(classes(first ?? {})).not.toContain("FluxGuidance");
  });

  it("builds flux-dev with 20 steps through FluxGuidance and the named checkpoint", () => {
    const settings = comfyuiSettingsSchema.parse({
      workflow: "flux-dev",
      checkpoint: "flux1-dev-fp8.safetensors",
    });
    const built = imageWorkflows(settings, null, { ...request, count: 1 });
    if (!built.ok) throw new Error(built.why);
    const graph = built.graphs[0] ?? {};
    expect(classes(graph)).toEqual([
      "CLIPTextEncode",
      "CLIPTextEncode",
      "DualCLIPLoader",
      "EmptySD3LatentImage",
      "FluxGuidance",
      "KSampler",
      "SaveImage",
      "UNETLoader",
      "VAEDecode",
      "VAELoader",
    ]);
    expect(graph["6"]?.inputs).toMatchObject({ steps: 20, positive: ["10", 0] });
    expect(graph["1"]?.inputs.unet_name).toBe("flux1-dev-fp8.safetensors");
  });

  it("fills a workflow file and says what is wrong with a bad one", () => {
    const settings = comfyuiSettingsSchema.parse({ workflow: "/etc/llmgw/w.json", steps: 6 });
    const text =
      '{"1": {"class_type": "KSampler", "inputs": {"steps": {{steps}}}}, "2": {"class_type": "SaveImage", "inputs": {}}}';
    const built = imageWorkflows(settings, text, { ...request, count: 1 });
    expect(built.ok && built.graphs[0]?.["1"]?.inputs.steps).toBe(6);
    const bad = imageWorkflows(
      settings,
      '{"1": {"class_type": "KSampler", "inputs": {}}}',
      request,
    );
    expect(bad).toEqual({ ok: false, why: expect.stringContaining("SaveImage") as string });
  });

  it("refuses a workflow that is neither built in nor a .json path", () => {
    expect(comfyuiSettingsSchema.safeParse({ workflow: "sdxl" }).success).toBe(false);
    expect(comfyuiSettingsSchema.safeParse({ workflow: "relative.json" }).success).toBe(false);
    expect(comfyuiSettingsSchema.safeParse({ checkpoint: "../x.safetensors" }).success).toBe(false);
  });
});
