// A real llama.cpp end to end: a real (not simulated) agent on this machine installs llama-server
// from the shared engine cache, a model is placed on that CPU node, and the real engine serves it
// through /v1 for the official openai client. The model is the tiny llama GGUF the project makes
// itself (packages/testing), so nothing is downloaded but the pinned llama.cpp source, once.
//
// Without a build in the cache, beforeAll builds it first (ensureLlamacppBuilt in packages/testing,
// shared with the other real llama.cpp tests).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { must } from "@llmgw/domain";
import {
  startCpuAgent,
  tempDir,
  tinyLlamaGguf,
  waitFor,
  enginePid,
  ensureLlamacppBuilt,
  LLAMACPP_BUILD_TIMEOUT_MS,
  LLAMACPP_ENGINE_DIR,
} from "@llmgw/testing";
import { startFleet, type Fleet } from "./harness";

const NODE = "it-cpu-1";
const MODEL = "tiny-llama";

describe("llama.cpp for real on a CPU node", () => {
  let fleet: Fleet;
  let dataDir: string;
  let endpoint: string;
  let key: string;
  const client = () => new OpenAI({ apiKey: key, baseURL: fleet.v1, maxRetries: 0 });

  beforeAll(async () => {
    ensureLlamacppBuilt();
    const modelFile = join((await tempDir("it-gguf")).path, "tiny-llama.gguf");
    writeFileSync(modelFile, tinyLlamaGguf());
    fleet = await startFleet({ env: { LLMGW_RESYNC_INTERVAL_MS: "300" } });
    dataDir = (await tempDir("it-agent-cpu")).path;
    const agent = startCpuAgent(fleet.server, NODE, dataDir, LLAMACPP_ENGINE_DIR);
    fleet.agents.set(NODE, { process: agent, dataDir });
    await fleet.api.models.add.mutate({
      definition: {
        name: MODEL,
        source: modelFile,
        profiles: [
          { name: "cpu", engine: "llamacpp", context_length: 512, memory_gb: 1, cpu_cores: 1 },
        ],
        replicas: { min: 1, max: 1 },
      },
    });
    endpoint = must((await fleet.readyReplicas(MODEL, 1, 120_000))[0], "a ready replica").endpoint;
    key = (await fleet.api.keys.create.mutate({ owner: "team:ml", models: ["tiny*"] })).key;
  }, LLAMACPP_BUILD_TIMEOUT_MS + 180_000);

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  it("reports the install ready and offers llamacpp on the node", async () => {
    const node = must(
      (await fleet.api.nodes.list.query()).find((n) => n.name === NODE),
      "the CPU node",
    );
    expect(node.simulated).toBe(false);
    expect(node.engines).toContain("llamacpp");
    expect(node.engineInstalls).toEqual([
      expect.objectContaining({ engine: "llamacpp", state: "ready" }),
    ]);
    expect(node.engineInstalls[0]?.message).toMatch(/^version: /);
    const metrics = await (await fetch(`${fleet.server.apiUrl}/metrics`)).text();
    expect(metrics).toContain(
      `llmgw_engine_install{node="${NODE}",engine="llamacpp",state="ready"} 1`,
    );
  });

  it("runs a real llama-server with the key in its environment, refusing requests without it", async () => {
    const pid = enginePid(dataDir);
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    expect(argv[0]).toMatch(/llamacpp-.*\/bin\/llama-server$/);
    expect(argv).toContain("--metrics");
    expect(readFileSync(`/proc/${pid}/environ`, "utf8")).toMatch(/(^|\0)LLAMA_API_KEY=/);
    expect((await fetch(`http://${endpoint}/health`)).status).toBe(200);
    const anonymous = await fetch(`http://${endpoint}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(anonymous.status).toBe(401);
  });

  it("answers chat plain and streamed through /v1 with the openai client", async () => {
    // The tiny model's weights are noise: sampled freely it may draw its end-of-text token at any
    // step, so the test asks llama-server to ignore it (its `ignore_eos`, passed through as is).
    const answer = await client().chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "hello the model" }],
      max_tokens: 8,
      ...{ ignore_eos: true },
    });
    expect(answer.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(answer.usage?.completion_tokens).toBe(8);
    const stream = await client().chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "hello" }],
      max_tokens: 8,
      stream: true,
      ...{ ignore_eos: true },
    });
    let chunks = 0;
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) chunks += 1;
    expect(chunks).toBeGreaterThan(0);
  });

  it("scrapes the engine's queue metrics for routing", async () => {
    await waitFor(
      async () => {
        const metrics = await (await fetch(`${fleet.server.apiUrl}/metrics`)).text();
        return /llmgw_gateway_endpoint_engine_waiting\{model="tiny-llama",replica="[^"]+"\} 0/.test(
          metrics,
        );
      },
      { what: "llamacpp:requests_deferred scraped into the gateway", timeoutMs: 30_000 },
    );
  });

  it("adopts the same llama-server (same pid) after the agent restarts", async () => {
    const pid = enginePid(dataDir);
    await fleet.agent(NODE).process.stop();
    const agent = startCpuAgent(fleet.server, NODE, dataDir, LLAMACPP_ENGINE_DIR);
    fleet.agents.set(NODE, { process: agent, dataDir });
    await waitFor(
      async () =>
        (await fleet.api.nodes.list.query()).find((n) => n.name === NODE && n.state === "ready"),
      { what: "the agent back", timeoutMs: 60_000 },
    );
    const [ready] = await fleet.readyReplicas(MODEL, 1, 60_000);
    expect(ready?.endpoint).toBe(endpoint);
    expect(enginePid(dataDir)).toBe(pid);
  });

  it("reports a crash (SIGKILL) with the engine's last log lines", async () => {
    process.kill(enginePid(dataDir), "SIGKILL");
    const error = await waitFor(
      async () => {
        const { events } = await fleet.api.events.list.query({ kinds: ["replica.failed"] });
        const message = events[0]?.params.error;
        return typeof message === "string" ? message : undefined;
      },
      { what: "the crash recorded as replica.failed", timeoutMs: 30_000 },
    );
    // The engine was adopted (not the new agent's child), so its exit status cannot be known; that
    // it died after being ready is, with llama-server's own last lines.
    expect(error).toMatch(
      /^engine exited \(adopted, exit status unknown\) after it was ready; last lines:/,
    );
    expect(error).toMatch(/ I slot /);
  });
});
