import { describe, expect, it } from "vitest";
import { getEngineAdapter } from "../registry";
import type { ReplicaLaunch } from "../types";
import { createComfyuiAdapter } from "./comfyui";

const LAUNCH: ReplicaLaunch = {
  replicaId: "r-7",
  model: "/cache/flux-schnell",
  servedModelName: "flux-schnell",
  host: "127.0.0.1",
  port: 9301,
  gpus: ["0"],
  apiKey: "the-replica-key",
  extraArgs: ["--lowvram", "--preview-method", "auto fast"],
};

const adapter = createComfyuiAdapter({
  comfyuiDir: "/opt/ComfyUI",
  baseDirectoryRoot: "/data/comfyui",
  comfyuiCommand: "/opt/venv/bin/python main.py",
  command: "node",
  prefixArgs: ["/app/llmgw.mjs", "comfyui-gate"],
});

describe("comfyui adapter", () => {
  it("launches the gate with the key in its environment, never in argv", () => {
    const built = adapter.buildCommand(LAUNCH);
    expect(built.command).toBe("node");
    expect(built.env["LLMGW_REPLICA_KEY"]).toBe("the-replica-key");
    expect(built.secretEnv).toEqual(["LLMGW_REPLICA_KEY"]);
    expect(built.args.join(" ")).not.toContain("the-replica-key");
    expect(built.env["CUDA_VISIBLE_DEVICES"]).toBe("0");
    const flag = (name: string): string | undefined => built.args[built.args.indexOf(name) + 1];
    expect(built.args.slice(0, 2)).toEqual(["/app/llmgw.mjs", "comfyui-gate"]);
    expect(flag("--port")).toBe("9301");
    expect(flag("--base-directory")).toBe("/data/comfyui/r-7");
    expect(flag("--served-model-name")).toBe("flux-schnell");
    expect(built.args).toContain("checkpoints=/cache/flux-schnell");
    expect(built.args).toContain("diffusion_models=/cache/flux-schnell");
    // The profile's arguments are ComfyUI's, so they ride on its command, not the gate's.
    expect(flag("--comfyui-command")).toBe(
      '/opt/venv/bin/python main.py --lowvram --preview-method "auto fast"',
    );
    expect(built.args.at(-1)).toBe(flag("--comfyui-command"));
  });

  it("is never scraped and waits on the gate's /health", () => {
    expect(adapter.metricsPath).toBeUndefined();
    expect(adapter.metricNames).toBeUndefined();
    expect(adapter.healthPath).toBe("/health");
    expect(getEngineAdapter("comfyui").name).toBe("comfyui");
  });

  it("refuses to start without a key, with a quote it cannot pass on, or on two cards", () => {
    const { apiKey: _dropped, ...open } = LAUNCH;
    expect(() => adapter.buildCommand(open)).toThrow(/needs the replica key/);
    expect(() => adapter.buildCommand({ ...LAUNCH, extraArgs: ['--x="y"'] })).toThrow(
      /has a quote/,
    );
    expect(() =>
      adapter.buildCommand({ ...LAUNCH, gpus: ["0", "1"], tensorParallel: 2 }),
    ).toThrow();
  });
});
