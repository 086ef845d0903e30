// The real `llmgw comfyui-gate` process with the simulated ComfyUI (`llmgw sim-comfyui`) as its
// child: a workflow queued through the gate makes a picture, the child's death ends the gate with
// the child's last lines, and SIGTERM stops both.
import {
  checkpointWorkflow,
  freePort,
  llmgwBin,
  spawnLlmgw,
  tempDir,
  waitFor,
} from "@llmgw/testing";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const KEY = "replica-key-for-the-gate-test-0123456789ab";
const SIM_COMMAND = `"${process.execPath}" "${llmgwBin()}" sim-comfyui --step-ms 2`;
const auth = { authorization: `Bearer ${KEY}` };

async function startGate(comfyuiCommand: string, extraArgs: string[] = []) {
  const dir = await tempDir("comfyui-gate");
  const port = await freePort();
  const gate = spawnLlmgw(
    [
      "comfyui-gate",
      "--port",
      String(port),
      "--comfyui-dir",
      dir.path,
      "--base-directory",
      join(dir.path, "replica"),
      "--comfyui-command",
      comfyuiCommand,
      "--served-model-name",
      "flux-schnell",
      ...extraArgs,
    ],
    { env: { LLMGW_REPLICA_KEY: KEY } },
  );
  return { gate, dir, url: `http://127.0.0.1:${port}` };
}

const started: { gate: { stop(): Promise<unknown> }; dir: { remove(): Promise<void> } }[] = [];
afterAll(async () => {
  for (const { gate, dir } of started) {
    await gate.stop();
    await dir.remove();
  }
});

function workflow(ckpt: string) {
  return checkpointWorkflow({
    checkpoint: ckpt,
    text: "a lighthouse",
    ...{ width: 48, height: 32, seed: 1, filenamePrefix: "gate" },
  });
}

describe("llmgw comfyui-gate", () => {
  it("serves a workflow through the gate from the weights it was shown", async () => {
    const weights = await tempDir("comfyui-weights");
    mkdirSync(join(weights.path, "flux"));
    writeFileSync(join(weights.path, "flux", "flux1-schnell.safetensors"), "");
    const run = await startGate(SIM_COMMAND, [
      "--model-dir",
      `checkpoints=${join(weights.path, "flux")}`,
    ]);
    started.push(run, { gate: { stop: async () => undefined }, dir: weights });
    await waitFor(async () => (await fetch(`${run.url}/health`, { headers: auth })).ok, {
      what: "gate /health",
      timeoutMs: 30_000,
    });
    expect((await fetch(`${run.url}/health`)).status).toBe(401);
    const queued = await fetch(`${run.url}/prompt`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ prompt: workflow("flux1-schnell.safetensors") }),
    });
    expect(queued.status).toBe(200);
    const { prompt_id: promptId } = (await queued.json()) as { prompt_id: string };
    const entry = await waitFor(
      async () =>
        (
          (await (
            await fetch(`${run.url}/history/${promptId}`, { headers: auth })
          ).json()) as Record<
            string,
            { outputs: Record<string, { images: Record<string, string>[] }> }
          >
        )[promptId],
      { what: "the prompt's history" },
    );
    const image = entry.outputs["9"]?.images[0] ?? {};
    const view = await fetch(`${run.url}/view?${new URLSearchParams(image).toString()}`, {
      headers: auth,
    });
    expect(view.status).toBe(200);
    const png = Buffer.from(await view.arrayBuffer());
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([48, 32]);
    // A checkpoint it was not shown is refused by ComfyUI's own validation, passed back unchanged.
    const unknown = await fetch(`${run.url}/prompt`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ prompt: workflow("other.safetensors") }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: { type: "prompt_outputs_failed_validation" },
    });
  }, 60_000);

  it("exits non-zero with the child's last lines when ComfyUI dies", async () => {
    const run = await startGate(
      `"${process.execPath}" -e "console.error('CUDA out of memory'); process.exit(3)" --`,
    );
    started.push(run);
    const exit = await run.gate.exited;
    expect(exit.code).toBe(3);
    expect(run.gate.output()).toMatch(/ComfyUI exited \(code 3\)[\s\S]*CUDA out of memory/);
  }, 30_000);

  it("stops ComfyUI on SIGTERM and exits 0", async () => {
    const run = await startGate(SIM_COMMAND);
    started.push(run);
    const [, childUrl] = (await run.gate.waitForOutput(
      /ComfyUI starting at (http:\/\/\S+)/,
      20_000,
    )) as unknown as [string, string];
    await waitFor(async () => (await fetch(`${childUrl}/system_stats`)).ok, {
      what: "simulated ComfyUI",
      timeoutMs: 30_000,
    });
    run.gate.kill("SIGTERM");
    expect((await run.gate.exited).code).toBe(0);
    await expect(fetch(`${childUrl}/system_stats`)).rejects.toThrow();
  }, 60_000);
});
