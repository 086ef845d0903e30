import { mkdtempSync, readFileSync, readlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { parseGateArgs, splitCommand } from "./config";
import { writeExtraModelPaths } from "./model-paths";

const BASE = ["--port", "9100", "--comfyui-dir", "/opt/comfy", "--base-directory", "/r/1"];
const ENV = { LLMGW_REPLICA_KEY: "secret-key", PATH: "/usr/bin" };

describe("parseGateArgs", () => {
  it("reads flags and the key from the environment", () => {
    const config = parseGateArgs(
      [...BASE, "--model-dir", "checkpoints=/cache/flux", "--comfyui-command", 'python3 "main.py"'],
      ENV,
    );
    expect(config).toMatchObject({
      port: 9100,
      host: "127.0.0.1",
      apiKey: "secret-key",
      modelDirs: [{ folder: "checkpoints", path: "/cache/flux" }],
      comfyuiCommand: ["python3", "main.py"],
    });
    expect(config.childEnv).not.toHaveProperty("LLMGW_REPLICA_KEY");
  });

  it("refuses to run without a key, and names bad flags", () => {
    expect(() => parseGateArgs(BASE, {})).toThrow(/LLMGW_REPLICA_KEY is not set/);
    expect(() => parseGateArgs(["--port", "0", ...BASE.slice(2)], ENV)).toThrow(/--port must be/);
    expect(() => parseGateArgs(BASE.slice(2), ENV)).toThrow(/--port is required/);
    expect(() => parseGateArgs([...BASE, "--model-dir", "../x=/etc"], ENV)).toThrow(/FOLDER=PATH/);
    expect(() => parseGateArgs([...BASE, "--api-key", "k"], ENV)).toThrow(/api-key/);
  });

  it("splits a command on spaces, keeping quoted parts", () => {
    expect(splitCommand(`node -e "console.log('a b')" x`)).toEqual([
      "node",
      "-e",
      "console.log('a b')",
      "x",
    ]);
    expect(() => splitCommand("   ")).toThrow(/empty/);
  });
});

describe("writeExtraModelPaths", () => {
  it("maps folders to the weights' directories and links a lone file into one", () => {
    const root = mkdtempSync(join(tmpdir(), "gate-paths-"));
    mkdirSync(join(root, "flux"));
    writeFileSync(join(root, "ae.safetensors"), "");
    const base = join(root, "replica");
    const file = writeExtraModelPaths(base, [
      { folder: "checkpoints", path: join(root, "flux") },
      { folder: "vae", path: join(root, "ae.safetensors") },
    ]);
    const yaml = parse(readFileSync(file, "utf8")) as { llmgw: Record<string, string> };
    expect(yaml.llmgw["checkpoints"]?.trim()).toBe(join(root, "flux"));
    const vaeDir = yaml.llmgw["vae"]?.trim() ?? "";
    expect(readlinkSync(join(vaeDir, "ae.safetensors"))).toBe(join(root, "ae.safetensors"));
    // A second start of the same replica rewrites the link instead of failing on it.
    expect(() =>
      writeExtraModelPaths(base, [{ folder: "vae", path: join(root, "ae.safetensors") }]),
    ).not.toThrow();
  });

  it("names weights that are not there", () => {
    const base = mkdtempSync(join(tmpdir(), "gate-paths-"));
    expect(() => writeExtraModelPaths(base, [{ folder: "vae", path: "/no/such/file" }])).toThrow(
      /no\/such\/file/,
    );
  });
});
