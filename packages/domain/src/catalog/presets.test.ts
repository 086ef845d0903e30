import { describe, expect, it } from "vitest";
import { createCatalog } from "./catalog";
import { parseModelDefinition } from "./model-definition";
import { PRESETS, findPreset, presetNames } from "./presets";
import { pickleExtension } from "./source";

describe("presets", () => {
  it.each(PRESETS.map((preset) => [preset.name, preset] as const))(
    "%s parses with the model schema",
    (_name, preset) => {
      const result = parseModelDefinition(preset);
      expect(result.ok ? [] : result.errors).toEqual([]);
    },
  );

  it("hold themselves to the pickle check rather than opting out of it", () => {
    for (const preset of PRESETS) {
      expect(preset.allow_pickle ?? false).toBe(false);
      expect(pickleExtension(preset.source ?? "")).toBeUndefined();
    }
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
