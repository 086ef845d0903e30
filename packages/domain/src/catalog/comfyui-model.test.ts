import { describe, expect, it } from "vitest";
import { isComfyuiModel, parseModelDefinition } from "./model-definition";

function errorsOf(input: unknown): string[] {
  const result = parseModelDefinition(input);
  return result.ok ? [] : result.errors;
}

const local = (fields: Record<string, unknown> = {}) => ({
  name: "flux",
  source: "black-forest-labs/FLUX.1-schnell",
  profiles: [{ name: "cuda", engine: "comfyui", gpu: { min_memory_gb: 24 } }],
  ...fields,
});

describe("ComfyUI models in the catalog", () => {
  it("take a comfyui block naming a workflow, and parse again as stored", () => {
    const result = parseModelDefinition(local({ comfyui: { workflow: "flux-dev", steps: 12 } }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.comfyui).toEqual({ workflow: "flux-dev", steps: 12 });
    expect(isComfyuiModel(result.model)).toBe(true);
    expect(parseModelDefinition(result.model)).toEqual(result);
  });

  it("take an external ComfyUI server with no provider model name", () => {
    const result = parseModelDefinition({
      name: "comfy-ext",
      external: { api: "comfyui", url: "http://comfy.example:8188" },
      comfyui: { workflow: "/etc/llmgw/sdxl.json" },
    });
    expect(result.ok).toBe(true);
    if (result.ok) expect(isComfyuiModel(result.model)).toBe(true);
  });

  it("still ask an OpenAI provider's model name", () => {
    const errors = errorsOf({ name: "x", external: { url: "https://api.example.com/v1" } });
    expect(errors.join("\n")).toContain("external.model");
  });

  it("refuse a comfyui block on a model ComfyUI does not serve", () => {
    const errors = errorsOf(
      local({
        profiles: [{ name: "cpu", engine: "llamacpp" }],
        comfyui: { workflow: "flux-schnell" },
      }),
    );
    expect(errors.join("\n")).toContain("comfyui settings apply");
  });

  it("refuse mixing comfyui with a text engine, and an unknown workflow", () => {
    const mixed = local({
      profiles: [
        { name: "cuda", engine: "comfyui", gpu: "H100-80G" },
        { name: "vllm", engine: "vllm", gpu: "H100-80G" },
      ],
    });
    expect(errorsOf(mixed).join("\n")).toContain("give every profile engine comfyui");
    expect(errorsOf(local({ comfyui: { workflow: "sdxl" } })).join("\n")).toContain(
      "comfyui.workflow",
    );
  });

  it("refuse a ComfyUI flag the gate sets", () => {
    const errors = errorsOf(
      local({
        profiles: [
          { name: "cuda", engine: "comfyui", gpu: "H100-80G", args: ["--listen", "0.0.0.0"] },
        ],
      }),
    );
    expect(errors.join("\n")).toContain("--listen");
  });
});
