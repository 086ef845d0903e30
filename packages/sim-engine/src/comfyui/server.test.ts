import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HistoryEntry } from "./prompt-queue";
import { parseSimComfyArgs } from "./run-sim-comfyui";
import { startComfySim, type ComfySimOptions } from "./server";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function sim(options: ComfySimOptions = {}): Promise<string> {
  const started = await startComfySim({ stepMs: 2, ...options });
  closers.push(started.close);
  return started.url;
}

/** Flux schnell as ComfyUI's example workflow has it, in API format. */
function schnell(
  text: string,
  overrides: { steps?: number; width?: number; batch?: number; ckpt?: string } = {},
): Graph {
  return {
    "4": {
      class_type: "CheckpointLoaderSimple",
      inputs: { ckpt_name: overrides.ckpt ?? "flux1-schnell-fp8.safetensors" },
    },
    "6": { class_type: "CLIPTextEncode", inputs: { text, clip: ["4", 1] } },
    "7": { class_type: "CLIPTextEncode", inputs: { text: "", clip: ["4", 1] } },
    "5": {
      class_type: "EmptySD3LatentImage",
      inputs: { width: overrides.width ?? 64, height: 32, batch_size: overrides.batch ?? 1 },
    },
    "3": {
      class_type: "KSampler",
      inputs: {
        seed: 7,
        steps: overrides.steps ?? 4,
        cfg: 1,
        sampler_name: "euler",
        scheduler: "simple",
        denoise: 1,
        model: ["4", 0],
        positive: ["6", 0],
        negative: ["7", 0],
        latent_image: ["5", 0],
      },
    },
    "8": { class_type: "VAEDecode", inputs: { samples: ["3", 0], vae: ["4", 2] } },
    "9": { class_type: "SaveImage", inputs: { filename_prefix: "llmgw/flux", images: ["8", 0] } },
  };
}

interface ErrorBody {
  error: { type: string; message: string };
  node_errors: Record<string, { class_type: string; errors: { type: string }[] }>;
}
interface Queued {
  prompt_id: string;
  number: number;
  node_errors: object;
}
interface QueueBody {
  queue_running: unknown[][];
  queue_pending: unknown[][];
}
type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

async function json<T>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function waitForHistory(url: string, promptId: string): Promise<HistoryEntry> {
  const deadlineMs = Date.now() + 5000;
  while (Date.now() < deadlineMs) {
    const entry = (await json<Record<string, HistoryEntry>>(fetch(`${url}/history/${promptId}`)))[
      promptId
    ];
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`prompt ${promptId} never reached the history`);
}

function firstImage(entry: HistoryEntry, nodeId = "9"): Record<string, string> {
  const image = entry.outputs[nodeId]?.images[0];
  if (image === undefined) throw new Error(`node ${nodeId} saved no image`);
  return { ...image };
}

async function queueIds(url: string): Promise<{ running: unknown[]; pending: unknown[] }> {
  const queue = await json<QueueBody>(fetch(`${url}/queue`));
  return {
    running: queue.queue_running.map((row) => row[1]),
    pending: queue.queue_pending.map((row) => row[1]),
  };
}

describe("simulated ComfyUI", () => {
  it("queues a workflow, runs it and serves its picture from /view", async () => {
    const url = await sim();
    const queued = await post(`${url}/prompt`, { prompt: schnell("a red fox"), client_id: "c1" });
    expect(queued.status).toBe(200);
    const body = await json<Queued>(queued);
    expect(body).toMatchObject({ number: 0, node_errors: {} });
    const entry = await waitForHistory(url, body.prompt_id);
    expect(entry.status).toMatchObject({ status_str: "success", completed: true });
    expect(entry.prompt[3]).toEqual({ client_id: "c1" });
    const image = firstImage(entry);
    expect(image).toEqual({ filename: "flux_00001_.png", subfolder: "llmgw", type: "output" });
    const view = await fetch(`${url}/view?${new URLSearchParams(image).toString()}`);
    expect(view.status).toBe(200);
    expect(view.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await view.arrayBuffer());
    expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([64, 32]);
  });

  it("draws the same picture for the same text and seed, another for other text", async () => {
    const url = await sim();
    const pictures: Buffer[] = [];
    for (const text of ["owl", "owl", "cat"]) {
      const { prompt_id: promptId } = await json<Queued>(
        post(`${url}/prompt`, { prompt: schnell(text) }),
      );
      const image = firstImage(await waitForHistory(url, promptId));
      const view = await fetch(`${url}/view?${new URLSearchParams(image).toString()}`);
      pictures.push(Buffer.from(await view.arrayBuffer()));
    }
    expect(pictures[0]).toEqual(pictures[1]);
    expect(pictures[0]).not.toEqual(pictures[2]);
  });

  it("saves one picture per latent in the batch, numbered on", async () => {
    const url = await sim();
    const { prompt_id: promptId } = await json<Queued>(
      post(`${url}/prompt`, { prompt: schnell("two", { batch: 2 }) }),
    );
    const entry = await waitForHistory(url, promptId);
    expect(entry.outputs["9"]?.images.map((image) => image.filename)).toEqual([
      "flux_00001_.png",
      "flux_00002_.png",
    ]);
  });

  it("answers an unknown node class and a missing input with ComfyUI's error shapes", async () => {
    const url = await sim();
    const unknown = await post(`${url}/prompt`, {
      prompt: { "1": { class_type: "NoSuchNode", inputs: {} } },
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: { type: "invalid_prompt", message: expect.stringContaining("NoSuchNode") as unknown },
      node_errors: {},
    });
    const graph = schnell("x");
    delete graph["6"]?.inputs["clip"];
    const missing = await post(`${url}/prompt`, { prompt: graph });
    expect(missing.status).toBe(400);
    const body = await json<ErrorBody>(missing);
    expect(body.error.type).toBe("prompt_outputs_failed_validation");
    expect(body.node_errors["6"]).toMatchObject({
      class_type: "CLIPTextEncode",
      dependent_outputs: ["9"],
      errors: [
        { type: "required_input_missing", details: "clip", extra_info: { input_name: "clip" } },
      ],
    });
  });

  it("refuses a prompt with no output node, a bad number, a link of the wrong type and no body", async () => {
    const url = await sim();
    const noOutputs = await json<ErrorBody>(
      post(`${url}/prompt`, { prompt: { "5": schnell("x")["5"] } }),
    );
    expect(noOutputs.error.type).toBe("prompt_no_outputs");
    const badSteps = await json<ErrorBody>(
      post(`${url}/prompt`, { prompt: schnell("x", { steps: 0 }) }),
    );
    expect(badSteps.node_errors["3"]?.errors[0]?.type).toBe("value_smaller_than_min");
    const crossed = schnell("x");
    const sampler = crossed["3"];
    if (sampler) sampler.inputs["latent_image"] = ["6", 0];
    const mismatch = await json<ErrorBody>(post(`${url}/prompt`, { prompt: crossed }));
    expect(mismatch.node_errors["3"]?.errors[0]?.type).toBe("return_type_mismatch");
    const empty = await post(`${url}/prompt`, {});
    expect(empty.status).toBe(400);
    expect((await json<ErrorBody>(empty)).error.type).toBe("no_prompt");
    expect((await fetch(`${url}/prompt`, { method: "POST", body: "{" })).status).toBe(400);
  });

  it("checks model names against the files under its base directory and extra paths", async () => {
    const base = mkdtempSync(join(tmpdir(), "sim-comfy-"));
    mkdirSync(join(base, "models", "checkpoints"), { recursive: true });
    writeFileSync(join(base, "models", "checkpoints", "mine.safetensors"), "");
    const extra = mkdtempSync(join(tmpdir(), "sim-comfy-extra-"));
    mkdirSync(join(extra, "flux"));
    writeFileSync(join(extra, "flux", "ae.safetensors"), "");
    const yamlPath = join(extra, "paths.yaml");
    writeFileSync(yamlPath, `llmgw:\n  base_path: ${extra}\n  vae: |\n    flux\n`);
    const url = await sim({ baseDirectory: base, extraModelPathsConfigs: [yamlPath] });
    expect(await json<string[]>(fetch(`${url}/models/checkpoints`))).toEqual(["mine.safetensors"]);
    expect(await json<string[]>(fetch(`${url}/models/vae`))).toEqual(["ae.safetensors"]);
    const info = await json<Record<string, { input: { required: Record<string, unknown> } }>>(
      fetch(`${url}/object_info/CheckpointLoaderSimple`),
    );
    expect(info["CheckpointLoaderSimple"]?.input.required["ckpt_name"]).toEqual([
      ["mine.safetensors"],
    ]);
    const wrong = await json<ErrorBody>(post(`${url}/prompt`, { prompt: schnell("x") }));
    expect(wrong.node_errors["4"]?.errors[0]?.type).toBe("value_not_in_list");
    expect(
      (await post(`${url}/prompt`, { prompt: schnell("x", { ckpt: "mine.safetensors" }) })).status,
    ).toBe(200);
  });

  it("runs one prompt at a time, lists the queue and deletes a pending one", async () => {
    const url = await sim({ stepMs: 50 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(
        (await json<Queued>(post(`${url}/prompt`, { prompt: schnell(`p${i}`, { steps: 20 }) })))
          .prompt_id,
      );
    expect(await queueIds(url)).toEqual({ running: [ids[0]], pending: [ids[1], ids[2]] });
    expect((await post(`${url}/queue`, { delete: [ids[1]] })).status).toBe(200);
    expect((await queueIds(url)).pending).toEqual([ids[2]]);
    await post(`${url}/queue`, { clear: true });
    expect((await queueIds(url)).pending).toEqual([]);
    expect(await json<object>(fetch(`${url}/history/${ids[1]}`))).toEqual({});
    expect((await post(`${url}/queue`, { delete: "all" })).status).toBe(400);
  });

  it("interrupts the running prompt, recording it as ComfyUI's execution_interrupted", async () => {
    const url = await sim({ stepMs: 1000 });
    const { prompt_id: promptId } = await json<Queued>(
      post(`${url}/prompt`, { prompt: schnell("slow") }),
    );
    expect((await post(`${url}/interrupt`, { prompt_id: "someone-else" })).status).toBe(200);
    expect((await queueIds(url)).running).toEqual([promptId]);
    expect((await fetch(`${url}/interrupt`, { method: "POST" })).status).toBe(200);
    const entry = await waitForHistory(url, promptId);
    expect(entry.status).toMatchObject({ status_str: "error", completed: false });
    expect(entry.status.messages.map((message) => message[0])).toEqual([
      "execution_start",
      "execution_interrupted",
    ]);
    expect(entry.outputs).toEqual({});
  });

  it("refuses paths that leave the output folder in /view", async () => {
    const url = await sim();
    expect((await fetch(`${url}/view?filename=../../etc/passwd`)).status).toBe(400);
    expect((await fetch(`${url}/view?filename=passwd&subfolder=../../etc`)).status).toBe(403);
    expect((await fetch(`${url}/view?filename=nothing.png`)).status).toBe(404);
  });

  it("fails a prompt whose picture is too large as an execution error, and runs the next", async () => {
    const url = await sim();
    const graph = schnell("big", { width: 16384 });
    const latent = graph["5"];
    if (latent) latent.inputs["height"] = 16384;
    const { prompt_id: bigId } = await json<Queued>(post(`${url}/prompt`, { prompt: graph }));
    const { prompt_id: smallId } = await json<Queued>(
      post(`${url}/prompt`, { prompt: schnell("small") }),
    );
    const entry = await waitForHistory(url, bigId);
    expect(entry.status.messages[1]?.[0]).toBe("execution_error");
    expect(entry.status.messages[1]?.[1]["exception_message"]).toMatch(/pixels/);
    expect((await waitForHistory(url, smallId)).status.status_str).toBe("success");
  });

  it("says it is simulated, lists its node classes and has no other routes", async () => {
    const url = await sim();
    expect(await json<object>(fetch(`${url}/system_stats`))).toMatchObject({
      simulated: true,
      system: { comfyui_version: "simulated" },
    });
    const info = await json<Record<string, { output_node: boolean }>>(fetch(`${url}/object_info`));
    for (const name of [
      "UNETLoader",
      "DualCLIPLoader",
      "VAELoader",
      "KSamplerAdvanced",
      "FluxGuidance",
      "SaveImage",
    ])
      expect(info[name]).toBeDefined();
    expect(info["SaveImage"]?.output_node).toBe(true);
    expect((await fetch(`${url}/upload/image`, { method: "POST" })).status).toBe(404);
  });
});

describe("parseSimComfyArgs", () => {
  it("takes ComfyUI's flags and refuses bad ones by name", () => {
    expect(
      parseSimComfyArgs(["--listen", "127.0.0.1", "--port", "0", "--step-ms", "3"]),
    ).toMatchObject({
      host: "127.0.0.1",
      port: 0,
      stepMs: 3,
    });
    expect(() => parseSimComfyArgs(["--port", "99999"])).toThrow(/--port must be a whole number/);
    expect(() => parseSimComfyArgs(["--nope"])).toThrow(/nope/);
    expect(() => parseSimComfyArgs(["--extra-model-paths-config", "/no/such.yaml"])).toThrow(
      /--extra-model-paths-config/,
    );
  });
});
