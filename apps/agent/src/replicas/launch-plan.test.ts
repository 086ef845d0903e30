import { create } from "@bufbuild/protobuf";
import { StartReplicaSchema } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import { buildEngineCommand, chooseAdapter, type EngineHost } from "./launch-plan";

const COMFYUI = {
  dir: "/opt/ComfyUI",
  command: "python main.py",
  baseDirectoryRoot: "/data/comfyui",
  gateLauncher: { command: "llmgw", prefixArgs: ["comfyui-gate"] },
};
const NODE: EngineHost = {
  isSimulated: false,
  engines: ["vllm", "comfyui"],
  simLauncher: { command: "llmgw", prefixArgs: ["sim-engine"] },
  bindHost: "127.0.0.1",
  comfyui: COMFYUI,
};
const spec = create(StartReplicaSchema, {
  replicaId: "r-1",
  engine: "comfyui",
  model: "flux-schnell",
  apiKey: "k",
  gpuIndexes: [0],
  args: ["--lowvram"],
});

describe("chooseAdapter for comfyui", () => {
  it("runs the gate with the node's ComfyUI", () => {
    const plan = chooseAdapter(spec, NODE);
    expect(plan).toMatchObject({ adapter: { name: "comfyui" }, standIn: "" });
    const built = buildEngineCommand(plan, spec, "/cache/flux", 9400, NODE);
    expect(built.args[built.args.indexOf("--comfyui-command") + 1]).toBe(
      "python main.py --lowvram",
    );
  });

  it("runs the gate with sim-comfyui on a simulated node, and says so", () => {
    const simulated = {
      ...NODE,
      isSimulated: true,
      comfyui: { ...COMFYUI, command: "llmgw sim-comfyui" },
    };
    const plan = chooseAdapter(spec, simulated);
    expect(plan.standIn).toMatch(/sim-comfyui runs in place of ComfyUI/);
    const built = buildEngineCommand(plan, spec, "/cache/flux", 9400, simulated);
    expect(built.args[built.args.indexOf("--comfyui-command") + 1]).toBe("llmgw sim-comfyui");
  });

  it("refuses on a node whose settings name no ComfyUI", () => {
    const { comfyui: _none, ...bare } = NODE;
    expect(() => chooseAdapter(spec, { ...bare, engines: ["vllm"] })).toThrow(
      /set --comfyui-dir or LLMGW_COMFYUI_DIR/,
    );
  });
});
