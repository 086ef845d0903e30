import { describe, expect, it } from "vitest";
import { parseSimEngineArgs } from "./config";

describe("simulated LoRA adapters", () => {
  it("reads vLLM's --enable-lora --lora-modules NAME=PATH … among other flags", () => {
    const config = parseSimEngineArgs(
      [
        "--model",
        "qwen",
        "--enable-lora",
        "--max-loras",
        "2",
        "--lora-modules",
        "qwen:sql=/cache/aa",
        "qwen:legal=/cache/bb",
        "--port",
        "0",
      ],
      {},
    );
    expect(config.loraModules).toEqual([
      { name: "qwen:sql", path: "/cache/aa" },
      { name: "qwen:legal", path: "/cache/bb" },
    ]);
    expect(config.port).toBe(0);
  });

  it("refuses modules without --enable-lora, a spec without a path, and a name twice", () => {
    expect(() => parseSimEngineArgs(["--lora-modules", "a=/x"], {})).toThrow(
      "--lora-modules needs --enable-lora",
    );
    expect(() => parseSimEngineArgs(["--enable-lora", "--lora-modules", "a"], {})).toThrow(
      '--lora-modules takes NAME=PATH; "a" is not',
    );
    expect(() =>
      parseSimEngineArgs(["--enable-lora", "--lora-modules", "a=/x", "a=/y"], {}),
    ).toThrow('--lora-modules names "a" twice');
  });

  it("serves none by default", () => {
    expect(parseSimEngineArgs([], {}).loraModules).toEqual([]);
  });
});
