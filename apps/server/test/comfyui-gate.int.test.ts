// ComfyUI behind its gate, end to end: a model whose profile runs engine comfyui is placed on a
// simulated node, whose agent starts the real `llmgw comfyui-gate` with `llmgw sim-comfyui` as its
// child; the replica becomes ready by the gate's /health, the gate refuses a request without the
// replica key, and a workflow queued through it with the key produces a picture.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { must } from "@llmgw/domain";
import { checkpointWorkflow, waitFor } from "@llmgw/testing";
import { simWeightsSource, startFleet, type Fleet } from "./harness";

const NODE = "it-comfy-1";
const MODEL = "flux-sim";

/** The gate's pid and its environment's replica key, as the agent started it. */
function gateOf(dataDir: string): { pid: number; key: string } {
  const state = JSON.parse(readFileSync(join(dataDir, "replicas.json"), "utf8")) as {
    replicas?: Array<{ pid?: number }>;
  };
  const pid = must(state.replicas?.[0]?.pid, "the gate's recorded pid");
  const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
  const key = must(
    environ.find((entry) => entry.startsWith("LLMGW_REPLICA_KEY=")),
    "the gate's key",
  );
  return { pid, key: key.slice("LLMGW_REPLICA_KEY=".length) };
}

const WORKFLOW = checkpointWorkflow({
  checkpoint: "sim.safetensors",
  text: "a harbour at dawn",
  ...{ width: 40, height: 24, seed: 3, filenamePrefix: "it" },
});

describe("a comfyui replica behind llmgw comfyui-gate", () => {
  let fleet: Fleet;
  let endpoint: string;

  beforeAll(async () => {
    fleet = await startFleet({ agents: [{ name: NODE, profile: "h100x8" }] });
    await fleet.api.models.add.mutate({
      definition: {
        name: MODEL,
        source: await simWeightsSource("it-comfy-weights"),
        profiles: [
          {
            name: "comfy",
            engine: "comfyui",
            gpu: { min_compute_capability: 7.0, min_memory_gb: 16 },
            gpus: 1,
          },
        ],
        replicas: { min: 1, max: 1 },
      },
    });
    endpoint = must((await fleet.readyReplicas(MODEL, 1, 90_000))[0], "a ready replica").endpoint;
  }, 150_000);

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  it("is offered on the node and started as the gate with the key in its environment", async () => {
    const node = must(
      (await fleet.api.nodes.list.query()).find((n) => n.name === NODE),
      "the node",
    );
    expect(node.engines).toContain("comfyui");
    const { pid } = gateOf(fleet.agent(NODE).dataDir);
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    expect(argv).toContain("comfyui-gate");
    expect(argv.join(" ")).toContain("sim-comfyui");
    expect(argv.join(" ")).not.toContain(gateOf(fleet.agent(NODE).dataDir).key);
  });

  it("refuses a request without the key and serves a workflow with it", async () => {
    const { key } = gateOf(fleet.agent(NODE).dataDir);
    const auth = { authorization: `Bearer ${key}` };
    const prompt = JSON.stringify({ prompt: WORKFLOW });
    expect(
      (await fetch(`http://${endpoint}/prompt`, { method: "POST", body: prompt })).status,
    ).toBe(401);
    expect(
      (await fetch(`http://${endpoint}/upload/image`, { method: "POST", headers: auth })).status,
    ).toBe(404);
    const queued = await fetch(`http://${endpoint}/prompt`, {
      method: "POST",
      headers: auth,
      body: prompt,
    });
    expect(queued.status).toBe(200);
    const { prompt_id: promptId } = (await queued.json()) as { prompt_id: string };
    type History = Record<
      string,
      { outputs: Record<string, { images: Record<string, string>[] }> }
    >;
    const entry = await waitFor(
      async () =>
        (
          (await (
            await fetch(`http://${endpoint}/history/${promptId}`, { headers: auth })
          ).json()) as History
        )[promptId],
      { what: "the workflow's history" },
    );
    const image = must(entry.outputs["9"]?.images[0], "the saved picture");
    const view = await fetch(`http://${endpoint}/view?${new URLSearchParams(image).toString()}`, {
      headers: auth,
    });
    expect(view.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await view.arrayBuffer());
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([40, 24]);
  });
});
