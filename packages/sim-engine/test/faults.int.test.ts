import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { parseEngineMetrics, VLLM_METRIC_NAMES } from "@llmgw/engines";
import { spawnProcess, waitFor } from "@llmgw/testing";
import { authHeaders, KEY, postJson, readSse, SIM_BIN, startSim } from "./helpers";

const FAST = ["--ttft-ms", "5", "--tokens-per-second", "1000"];
const chat = (extra: Record<string, unknown> = {}) => ({
  model: "sim-model",
  messages: [{ role: "user", content: "hello" }],
  max_tokens: 8,
  ...extra,
});

describe("readiness", () => {
  it("answers /health 503 until --ready-after-ms, and /v1 503 meanwhile", async () => {
    const sim = await startSim(["--ready-after-ms", "1500", ...FAST]);
    expect((await fetch(`${sim.baseUrl}/health`)).status).toBe(503);
    const early = await postJson(sim.baseUrl, "/v1/chat/completions", chat());
    expect(early.status).toBe(503);
    expect(await early.json()).toMatchObject({ error: { code: "engine_loading" } });
    await waitFor(async () => (await fetch(`${sim.baseUrl}/health`)).status === 200, {
      what: "sim-engine /health 200",
      timeoutMs: 5_000,
    });
    expect((await postJson(sim.baseUrl, "/v1/chat/completions", chat())).status).toBe(200);
    await sim.proc.stop();
  });

  it("fault never-ready: /health stays 503", async () => {
    const sim = await startSim(["--ready-after-ms", "0", "--fault", "never-ready"]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetch(`${sim.baseUrl}/health`)).status).toBe(503);
    expect((await fetch(`${sim.baseUrl}/v1/models`, { headers: authHeaders() })).status).toBe(503);
    await sim.proc.stop();
  });
});

describe("faults", () => {
  it("crash-after:N exits non-zero after N seconds", async () => {
    const startedMs = Date.now();
    const sim = await startSim(["--ready-after-ms", "0", "--fault", "crash-after:1"]);
    const exit = await sim.proc.exited;
    expect(exit.code).toBe(1);
    expect(Date.now() - startedMs).toBeGreaterThanOrEqual(1000);
    expect(sim.proc.output()).toMatch(/crashing after 1000ms/);
  });

  it("status-5xx:1 answers every /v1 request 500 in OpenAI's shape, /health stays 200", async () => {
    const sim = await startSim(["--ready-after-ms", "0", "--fault", "status-5xx:1"]);
    const response = await postJson(sim.baseUrl, "/v1/chat/completions", chat());
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: { type: "server_error", code: "internal_error" },
    });
    expect((await fetch(`${sim.baseUrl}/health`)).status).toBe(200);
    await sim.proc.stop();
  });

  it("status-429:1 answers 429 with retry-after; the client sees a RateLimitError", async () => {
    const sim = await startSim(["--ready-after-ms", "0", "--fault", "status-429:1"]);
    const response = await postJson(sim.baseUrl, "/v1/completions", {
      model: "sim-model",
      prompt: "x",
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("1");
    const client = new OpenAI({ baseURL: `${sim.baseUrl}/v1`, apiKey: KEY, maxRetries: 0 });
    await expect(client.models.list()).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    await sim.proc.stop();
  });

  it("a rate between 0 and 1 fails some requests and passes others", async () => {
    const sim = await startSim([
      "--ready-after-ms",
      "0",
      "--seed",
      "7",
      "--fault",
      "status-5xx:0.5",
      ...FAST,
    ]);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1)
      statuses.push((await fetch(`${sim.baseUrl}/v1/models`, { headers: authHeaders() })).status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(500);
    await sim.proc.stop();
  });

  it("drop-stream:3 cuts the connection after 3 chunks, without [DONE]", async () => {
    const sim = await startSim(["--ready-after-ms", "0", "--fault", "drop-stream:3", ...FAST]);
    const response = await postJson(sim.baseUrl, "/v1/chat/completions", chat({ stream: true }));
    const { events, error } = await readSse(response);
    expect(error).toBeDefined();
    expect(events).toHaveLength(3);
    expect(events).not.toContain("[DONE]");
    const client = new OpenAI({ baseURL: `${sim.baseUrl}/v1`, apiKey: KEY, maxRetries: 0 });
    const consume = async (): Promise<number> => {
      let seen = 0;
      for await (const _chunk of await client.chat.completions.create({
        ...chat(),
        stream: true,
      } as OpenAI.ChatCompletionCreateParamsStreaming))
        seen += 1;
      return seen;
    };
    await expect(consume()).rejects.toThrow();
    // A whole (non-streamed) answer is not affected.
    expect((await postJson(sim.baseUrl, "/v1/chat/completions", chat())).status).toBe(200);
    await sim.proc.stop();
  });
});

describe("live load in /metrics", () => {
  it("counts running and waiting requests and KV use while they run, and returns to zero", async () => {
    const sim = await startSim([
      "--ready-after-ms",
      "0",
      "--max-num-seqs",
      "1",
      "--ttft-ms",
      "0",
      "--tokens-per-second",
      "20",
      "--kv-cache-tokens",
      "100",
    ]);
    const scrape = async () =>
      parseEngineMetrics(await (await fetch(`${sim.baseUrl}/metrics`)).text(), VLLM_METRIC_NAMES);
    const requests = [1, 2, 3].map(() =>
      postJson(sim.baseUrl, "/v1/chat/completions", chat({ max_tokens: 10 })),
    );
    const busy = await waitFor(
      async () => {
        const load = await scrape();
        return load.runningRequests === 1 && load.waitingRequests === 2 ? load : undefined;
      },
      { what: "1 running and 2 waiting", timeoutMs: 5_000, intervalMs: 20 },
    );
    expect(busy.kvCacheUsageRatio).toBeGreaterThan(0);
    await Promise.all((await Promise.all(requests)).map((r) => r.json()));
    expect(await scrape()).toEqual({
      runningRequests: 0,
      waitingRequests: 0,
      kvCacheUsageRatio: 0,
    });
    await sim.proc.stop();
  });

  it("gives a slot back when the client leaves mid-stream", async () => {
    const sim = await startSim([
      "--ready-after-ms",
      "0",
      "--ttft-ms",
      "0",
      "--tokens-per-second",
      "5",
    ]);
    const aborter = new AbortController();
    const response = await fetch(`${sim.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: authHeaders(),
      body: JSON.stringify(chat({ stream: true, max_tokens: 40 })),
      signal: aborter.signal,
    });
    expect(response.status).toBe(200);
    const running = async () =>
      parseEngineMetrics(await (await fetch(`${sim.baseUrl}/metrics`)).text(), VLLM_METRIC_NAMES)
        .runningRequests;
    expect(await running()).toBe(1);
    aborter.abort();
    await waitFor(async () => (await running()) === 0, {
      what: "running back to 0",
      timeoutMs: 3_000,
    });
    await sim.proc.stop();
  });
});

describe("flags and keys", () => {
  it("exits 2 on a bad flag, naming it", async () => {
    const proc = spawnProcess(process.execPath, [SIM_BIN, "--fault", "explode:1"], {
      name: "sim-bad-flag",
    });
    expect((await proc.exited).code).toBe(2);
    expect(proc.output()).toMatch(/unknown fault "explode"/);
  });

  it("takes VLLM_API_KEY when SIM_ENGINE_API_KEY is absent", async () => {
    const sim = await startSim(["--ready-after-ms", "0"], { VLLM_API_KEY: "vk-1" });
    expect(
      (await fetch(`${sim.baseUrl}/v1/models`, { headers: { authorization: "Bearer vk-1" } }))
        .status,
    ).toBe(200);
    expect((await fetch(`${sim.baseUrl}/v1/models`, { headers: authHeaders() })).status).toBe(401);
    expect(sim.proc.output()).not.toContain("vk-1");
    await sim.proc.stop();
  });

  it("stops on SIGTERM with exit 0", async () => {
    const sim = await startSim(["--ready-after-ms", "0"]);
    // At once after "listening": the handler must already be in place (it once was not).
    sim.proc.kill("SIGTERM");
    expect((await sim.proc.exited).code).toBe(0);
  });
});
