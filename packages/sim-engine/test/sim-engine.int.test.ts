import { inflateSync } from "node:zlib";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeaders, KEY, postJson, readSse, startSim, type RunningSim } from "./helpers";

const MODEL = "sim-qwen";
let sim: RunningSim;
let client: OpenAI;

beforeAll(async () => {
  sim = await startSim([
    "--model",
    MODEL,
    "--ready-after-ms",
    "0",
    "--ttft-ms",
    "5",
    "--tokens-per-second",
    "1000",
    "--max-model-len",
    "4096",
  ]);
  client = new OpenAI({ baseURL: `${sim.baseUrl}/v1`, apiKey: KEY, maxRetries: 0 });
});

afterAll(async () => {
  await sim.proc.stop();
});

describe("sim-engine with the official openai client", () => {
  it("lists its one model", async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual([MODEL]);
  });

  it("answers a chat completion with usage", async () => {
    const reply = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Say something" }],
      max_tokens: 5,
    });
    expect(reply.object).toBe("chat.completion");
    expect(reply.choices[0]?.message.role).toBe("assistant");
    expect(reply.choices[0]?.message.content?.split(" ")).toHaveLength(5);
    expect(reply.choices[0]?.finish_reason).toBe("length");
    expect(reply.usage).toMatchObject({
      completion_tokens: 5,
      total_tokens: (reply.usage?.prompt_tokens ?? 0) + 5,
    });
  });

  it("streams a chat completion: role chunk, one chunk per token, finish, usage", async () => {
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Stream please" }],
      max_tokens: 6,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toHaveLength(1 + 6 + 1 + 1);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });
    expect(
      chunks
        .slice(1, 7)
        .every((c) => typeof c.choices[0]?.delta.content === "string" && c.usage === null),
    ).toBe(true);
    expect(chunks[7]?.choices[0]?.finish_reason).toBe("length");
    expect(chunks[8]?.choices).toEqual([]);
    expect(chunks[8]?.usage?.completion_tokens).toBe(6);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
  });

  it("answers legacy completions", async () => {
    const reply = await client.completions.create({
      model: MODEL,
      prompt: "Once upon a time",
      max_tokens: 4,
    });
    expect(reply.object).toBe("text_completion");
    expect(reply.choices[0]?.text.trim().split(" ")).toHaveLength(4);
  });

  it("embeds deterministically, as unit vectors, in base64 by default", async () => {
    const first = await client.embeddings.create({ model: MODEL, input: ["alpha", "beta"] });
    const again = await client.embeddings.create({ model: MODEL, input: "alpha" });
    const [alpha, beta] = first.data.map((d) => d.embedding);
    expect(alpha).toHaveLength(256);
    expect(again.data[0]?.embedding).toEqual(alpha);
    expect(beta).not.toEqual(alpha);
    expect(Math.hypot(...(alpha ?? []))).toBeCloseTo(1, 5);
    const floats = (await (
      await postJson(sim.baseUrl, "/v1/embeddings", {
        model: MODEL,
        input: "alpha",
        encoding_format: "float",
        dimensions: 8,
      })
    ).json()) as { data: { embedding: number[] }[] };
    expect(floats.data[0]?.embedding).toHaveLength(8);
  });

  it("generates a real PNG as b64_json and as a data URL", async () => {
    const result = await client.images.generate({
      model: MODEL,
      prompt: "a red fox",
      size: "256x256",
      response_format: "b64_json",
    });
    const png = Buffer.from(result.data?.[0]?.b64_json ?? "", "base64");
    expect(png.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(png.toString("ascii", 12, 16)).toBe("IHDR");
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([
      256, 256, 8, 2,
    ]);
    const idatLength = png.readUInt32BE(33);
    expect(png.toString("ascii", 37, 41)).toBe("IDAT");
    expect(inflateSync(png.subarray(41, 41 + idatLength))).toHaveLength((256 * 3 + 1) * 256);
    const asUrl = await client.images.generate({
      model: MODEL,
      prompt: "a red fox",
      size: "16x8",
      response_format: "url",
    });
    expect(asUrl.data?.[0]?.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  });

  it("refuses a missing or wrong key with an OpenAI-shaped 401", async () => {
    const stranger = new OpenAI({ baseURL: `${sim.baseUrl}/v1`, apiKey: "wrong", maxRetries: 0 });
    await expect(stranger.models.list()).rejects.toMatchObject({
      status: 401,
      code: "invalid_api_key",
    });
    const bare = await fetch(`${sim.baseUrl}/v1/models`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("content-type")).toBe("application/json");
    expect(await bare.json()).toMatchObject({
      error: {
        type: "invalid_request_error",
        code: "invalid_api_key",
        message: expect.any(String),
      },
    });
  });
});

describe("sim-engine over plain HTTP", () => {
  it("keeps /health and /metrics open, like vLLM", async () => {
    expect((await fetch(`${sim.baseUrl}/health`)).status).toBe(200);
    const metrics = await fetch(`${sim.baseUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain(
      `vllm:num_requests_running{engine="0",model_name="${MODEL}"} 0`,
    );
  });

  it("echoes X-Request-Id, on errors too", async () => {
    const ok = await postJson(
      sim.baseUrl,
      "/v1/completions",
      { model: MODEL, prompt: "x", max_tokens: 1 },
      authHeaders({ "x-request-id": "req-42" }),
    );
    expect(ok.headers.get("x-request-id")).toBe("req-42");
    const refused = await fetch(`${sim.baseUrl}/v1/models`, {
      headers: { "x-request-id": "req-43" },
    });
    expect(refused.headers.get("x-request-id")).toBe("req-43");
  });

  it("answers bad JSON and missing fields with a 400 naming the field", async () => {
    const bad = await fetch(`${sim.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: authHeaders(),
      body: "{nope",
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(
      /not valid JSON/,
    );
    const missing = await postJson(sim.baseUrl, "/v1/chat/completions", { model: MODEL });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      error: {
        param: "messages",
        code: "missing_required_parameter",
        message: expect.stringContaining('"messages"'),
      },
    });
    const noInput = await postJson(sim.baseUrl, "/v1/embeddings", { model: MODEL });
    expect(await noInput.json()).toMatchObject({ error: { param: "input" } });
  });

  it("answers an unknown model with 404 and an over-long request with 400", async () => {
    const unknown = await postJson(sim.baseUrl, "/v1/completions", { model: "other", prompt: "x" });
    expect(unknown.status).toBe(404);
    const long = await postJson(sim.baseUrl, "/v1/completions", {
      model: MODEL,
      prompt: "x",
      max_tokens: 5000,
    });
    expect(await long.json()).toMatchObject({ error: { code: "context_length_exceeded" } });
  });

  it("streams legacy completions ending in [DONE]", async () => {
    const response = await postJson(sim.baseUrl, "/v1/completions", {
      model: MODEL,
      prompt: "abc",
      max_tokens: 3,
      stream: true,
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const { events, error } = await readSse(response);
    expect(error).toBeUndefined();
    expect(events).toHaveLength(3 + 1 + 1);
    expect(events.at(-1)).toBe("[DONE]");
    expect(JSON.parse(events[0] ?? "{}")).toMatchObject({
      object: "text_completion",
      choices: [{ index: 0, finish_reason: null }],
    });
  });
});
