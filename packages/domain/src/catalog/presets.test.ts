import { describe, expect, it } from "vitest";
import { createCatalog } from "./catalog";
import { parseModelDefinition } from "./model-definition";
import { PRESETS, findPreset, isPresetOffered, presetNames, presetNote } from "./presets";
import { pickleExtension } from "./source";

describe("presets", () => {
  it.each(PRESETS.map((preset) => [preset.name, preset] as const))(
    "%s parses with the model schema",
    (_name, preset) => {
      const result = parseModelDefinition(preset);
      expect(result.ok ? [] : result.errors).toEqual([]);
    },
  );

  it("hold themselves to the pickle check, except triposr, which says so in its note", () => {
    for (const preset of PRESETS) {
      if (preset.name === "triposr") continue;
      expect(preset.allow_pickle ?? false).toBe(false);
      expect(pickleExtension(preset.source ?? "")).toBeUndefined();
    }
    const triposr = findPreset("triposr");
    expect(triposr?.allow_pickle).toBe(true);
    expect(pickleExtension(triposr?.source ?? "")).toBe(".ckpt");
    expect(presetNote("triposr")).toMatch(/pickle.*allow_pickle: true/);
  });

  it("offer the ComfyUI presets only where a node can run comfyui", () => {
    const comfy = ["flux-schnell", "triposr"];
    const offered = (engines: string[]) =>
      PRESETS.filter((preset) => isPresetOffered(preset, new Set(engines))).map((p) => p.name);
    for (const name of comfy) expect(offered(["llamacpp", "sim"])).not.toContain(name);
    expect(offered(["sim", "comfyui"])).toEqual(expect.arrayContaining([...comfy, "sim-chat"]));
    expect(findPreset("flux-schnell")?.comfyui).toEqual({ workflow: "flux-schnell" });
  });

  it("make a valid catalog together, and include a simulated model and CPU and GPU llama.cpp profiles", () => {
    expect(createCatalog(PRESETS).ok).toBe(true);
    expect(presetNames()).toEqual(
      expect.arrayContaining(["qwen2.5-0.5b-instruct", "llama-3.1-8b-instruct", "sim-chat"]),
    );
    const qwen = findPreset("qwen2.5-0.5b-instruct");
    expect(qwen?.profiles?.map((profile) => profile.gpu === undefined)).toEqual([false, true]);
  });

  it("hand out copies, so editing one does not change the shipped preset", () => {
    const copy = findPreset("sim-chat");
    if (!copy) throw new Error("sim-chat preset missing");
    copy.name = "changed";
    expect(findPreset("sim-chat")?.name).toBe("sim-chat");
  });
});
