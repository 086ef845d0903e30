// Pictures through ComfyUI end to end: a real server whose external models (`api: comfyui`) are
// simulated ComfyUI servers this test starts on loopback (ComfyUI itself cannot run here; the
// router under test is the real one). The official `openai` client asks for pictures; the test
// reads the simulator's own /queue and /history to see what the router queued and took back.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { startComfySim } from "@llmgw/sim-engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFleet, type Fleet } from "./harness";

type Sim = Awaited<ReturnType<typeof startComfySim>>;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function simJson(sim: Sim, path: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${sim.url}${path}`)).json()) as Record<string, unknown>;
}

async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadlineMs = Date.now() + 15_000;
  while (Date.now() < deadlineMs) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The prompt ids the simulator has running and waiting. */
async function queueOf(sim: Sim): Promise<{ running: string[]; pending: string[] }> {
  const queue = await simJson(sim, "/queue");
  const ids = (rows: unknown) => (rows as unknown[][]).map((row) => String(row[1]));
  return { running: ids(queue.queue_running), pending: ids(queue.queue_pending) };
}

const BROKEN_WORKFLOW = {
  "1": {
    class_type: "UNETLoader",
    inputs: { unet_name: "flux.safetensors", weight_dtype: "default" },
  },
  "2": {
    class_type: "DualCLIPLoader",
    inputs: { clip_name1: "t5.safetensors", clip_name2: "l.safetensors", type: "flux" },
  },
  "3": { class_type: "VAELoader", inputs: { vae_name: "ae.safetensors" } },
  "4": { class_type: "CLIPTextEncode", inputs: { text: "{{prompt}}", clip: ["2", 0] } },
  "5": {
    class_type: "EmptySD3LatentImage",
    inputs: { width: "{{width}}", height: "{{height}}", batch_size: 1 },
  },
  // The sampler is misspelt: ComfyUI refuses the graph naming node 6.
  "6": {
    class_type: "KSampler",
    inputs: {
      model: ["1", 0],
      positive: ["4", 0],
      negative: ["4", 0],
      latent_image: ["5", 0],
      seed: "{{seed}}",
      steps: "{{steps}}",
      cfg: 1,
      sampler_name: "eulerr",
      scheduler: "simple",
      denoise: 1,
    },
  },
  "8": { class_type: "VAEDecode", inputs: { samples: ["6", 0], vae: ["3", 0] } },
  "9": { class_type: "SaveImage", inputs: { images: ["8", 0], filename_prefix: "it" } },
};

describe("images through ComfyUI", () => {
  let fleet: Fleet;
  let fast: Sim;
  let slow: Sim;
  let openai: OpenAI;
  let key: string;

  beforeAll(async () => {
    fast = await startComfySim({ stepMs: 20 });
    // Slow enough that a request is still running, and one still waiting, when its client leaves.
    slow = await startComfySim({ stepMs: 1_500 });
    const dir = await mkdtemp(join(tmpdir(), "it-comfy-"));
    await writeFile(join(dir, "broken.json"), JSON.stringify(BROKEN_WORKFLOW));
    await writeFile(join(dir, "no-save.json"), '{"1": {"class_type": "VAEDecode", "inputs": {}}}');
    fleet = await startFleet({ env: { LLMGW_ALLOW_PRIVATE_UPSTREAMS: "true" } });
    const external = (name: string, url: string, workflow: string) =>
      fleet.api.models.add.mutate({
        definition: { name, external: { api: "comfyui", url }, comfyui: { workflow } },
      });
    await external("comfy-fast", fast.url, "flux-schnell");
    await external("comfy-slow", slow.url, "flux-dev");
    await external("comfy-broken", fast.url, join(dir, "broken.json"));
    await external("comfy-nosave", fast.url, join(dir, "no-save.json"));
    key = (await fleet.api.keys.create.mutate({ owner: "team:ml", models: ["comfy-*"] })).key;
    openai = new OpenAI({ apiKey: key, baseURL: fleet.v1, maxRetries: 0 });
  });

  afterAll(async () => {
    await fleet?.stop(Boolean(process.env.IT_DUMP));
    await fast?.close();
    await slow?.close();
  });

  it("returns b64 PNGs from the official client, one workflow per picture, the prompt intact", async () => {
    const prompt = 'a "quoted" fox}},\n"99": {"class_type": "SaveImage"';
    const answer = await openai.images.generate({
      model: "comfy-fast",
      prompt,
      n: 2,
      size: "512x512",
    });
    expect(answer.data).toHaveLength(2);
    for (const picture of answer.data ?? [])
      expect(Buffer.from(picture.b64_json ?? "", "base64").subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const history = Object.values(await simJson(fast, "/history")) as {
      prompt: [
        number,
        string,
        Record<string, { class_type: string; inputs: Record<string, unknown> }>,
      ];
    }[];
    const graphs = history
      .map((entry) => entry.prompt[2])
      .filter((g) => g["4"]?.inputs.text === prompt);
    expect(graphs).toHaveLength(2);
    for (const graph of graphs) {
      expect(Object.keys(graph).sort()).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
      expect(graph["5"]?.inputs).toMatchObject({ width: 512, height: 512 });
      expect(graph["6"]?.inputs.steps).toBe(4);
    }
  });

  it("refuses url pictures and a bad size with a 400 naming the field", async () => {
    const url = openai.images.generate({
      model: "comfy-fast",
      prompt: "x",
      response_format: "url",
    });
    await expect(url).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("b64_json"),
    });
    const size = openai.images.generate({
      model: "comfy-fast",
      prompt: "x",
      size: "1000x1000",
    });
    await expect(size).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("multiple of 16"),
    });
  });

  it("refuses a workflow ComfyUI rejects with the node named, and none of ComfyUI's text", async () => {
    const refused = openai.images.generate({ model: "comfy-broken", prompt: "a lake" });
    await expect(refused).rejects.toMatchObject({
      status: 400,
      code: "workflow_refused",
      message: expect.stringContaining("node 6 (KSampler): value_not_in_list"),
    });
    const unusable = openai.images.generate({ model: "comfy-nosave", prompt: "a lake" });
    await expect(unusable).rejects.toMatchObject({
      status: 500,
      code: "workflow_unusable",
      message: expect.stringContaining("no SaveImage node"),
    });
  });

  it("takes a waiting workflow off the queue, and interrupts a running one, when its client leaves", async () => {
    const ask = (signal: AbortSignal) =>
      openai.images.generate({ model: "comfy-slow", prompt: "slow" }, { signal }).catch(() => null);
    const first = new AbortController();
    const second = new AbortController();
    const firstDone = ask(first.signal);
    const running = await waitUntil(
      "a running workflow",
      async () => (await queueOf(slow)).running[0],
    );
    const secondDone = ask(second.signal);
    const pending = await waitUntil(
      "a waiting workflow",
      async () => (await queueOf(slow)).pending[0],
    );
    second.abort();
    await secondDone;
    await waitUntil("the waiting workflow gone", async () =>
      (await queueOf(slow)).pending.includes(pending) ? undefined : true,
    );
    expect((await queueOf(slow)).running).toEqual([running]);
    first.abort();
    await firstDone;
    const entry = await waitUntil("the running workflow interrupted", async () => {
      const history = await simJson(slow, `/history/${running}`);
      return history[running] as
        { status: { status_str: string; messages: [string][] } } | undefined;
    });
    expect(entry.status.status_str).toBe("error");
    expect(entry.status.messages.map((message) => message[0])).toContain("execution_interrupted");
    expect((await queueOf(slow)).running).toEqual([]);
    // The waiting one never ran.
    expect(Object.keys(await simJson(slow, `/history/${pending}`))).toEqual([]);
  });
});
