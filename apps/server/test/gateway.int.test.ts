// The /v1 gateway end to end: a real server, a real agent with simulated cards, real sim-engine
// replicas, and the official `openai` client. The engine demands its replica key, so every answer
// that comes back proves the client's key was swapped for it on the way.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import { must } from "@llmgw/domain";
import {
  simGpuModel,
  simWeightsSource,
  startFleet,
  type Api,
  type Fleet,
  type ServerHandle,
} from "./harness";

describe("the /v1 gateway", () => {
  let fleet: Fleet;
  let server: ServerHandle;
  let api: Api;
  let v1: string;
  let qwenKey: string;
  let engineEndpoint: string;

  const post = (path: string, key: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${v1}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body,
    });
  const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: v1, maxRetries: 0 });

  beforeAll(async () => {
    const source = await simWeightsSource("it-gw-weights");
    fleet = await startFleet({
      env: { LLMGW_RESYNC_INTERVAL_MS: "300", LLMGW_BREAKER_OPEN_MS: "1500" },
      agents: [{ name: "it-gw-gpu", profile: "h100x8" }],
    });
    ({ server, api, v1 } = fleet);
    await api.models.add.mutate({ definition: simGpuModel("qwen-sim", source) });
    await api.models.add.mutate({
      definition: simGpuModel("qwen-faulty", source, { args: ["--fault", "status-5xx:1"] }),
    });
    await api.models.add.mutate({
      definition: simGpuModel("llama-sim", source, { min: 0, max: 1 }),
    });
    engineEndpoint = (await fleet.readyReplicas("qwen-sim", 1))[0]?.endpoint ?? "";
    await api.models.add.mutate({
      definition: simGpuModel("qwen-drop", source, { args: ["--fault", "drop-stream:3"] }),
    });
    await fleet.readyReplicas("qwen-faulty", 1);
    await fleet.readyReplicas("qwen-drop", 1);
    qwenKey = (await api.keys.create.mutate({ owner: "team:ml", models: ["qwen*"] })).key;
  });

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  it("lists only the models the key may use", async () => {
    const models = await client(qwenKey).models.list();
    expect(models.data.map((m) => m.id).sort()).toEqual(["qwen-drop", "qwen-faulty", "qwen-sim"]);
  });

  it("answers a plain chat completion through the replica, which never sees the client's key", async () => {
    const answer = await client(qwenKey).chat.completions.create({
      model: "qwen-sim",
      messages: [{ role: "user", content: "hello" }],
      max_tokens: 8,
    });
    expect(answer.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(answer.usage?.completion_tokens).toBeGreaterThan(0);
    // The control: the engine itself refuses the client's key.
    const direct = await fetch(`http://${engineEndpoint}/v1/models`, {
      headers: { authorization: `Bearer ${qwenKey}` },
    });
    expect(direct.status).toBe(401);
  });

  it("streams a chat completion with usage in the last chunk", async () => {
    const stream = await client(qwenKey).chat.completions.create({
      model: "qwen-sim",
      messages: [{ role: "user", content: "tell me something" }],
      max_tokens: 12,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(chunks.length).toBeGreaterThan(2);
    expect(text.length).toBeGreaterThan(0);
    expect(chunks.at(-1)?.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it("counts a streamed chat's tokens when the client did not ask for usage, and sends it no usage chunk", async () => {
    const key = (await api.keys.create.mutate({ owner: "team:streams", models: ["qwen-sim"] })).key;
    const stream = await client(key).chat.completions.create({
      model: "qwen-sim",
      messages: [{ role: "user", content: "tell me something" }],
      max_tokens: 12,
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    // What a client that did not ask always got: every chunk has a choice, none a usage field.
    expect(chunks.filter((c) => c.choices.length === 0)).toEqual([]);
    expect(chunks.filter((c) => "usage" in c)).toEqual([]);
    const row = await waitFor(
      async () =>
        (await api.usage.query.query({ owner: "team:streams" })).rows.find(
          (r) => r.model === "qwen-sim" && r.completionTokens > 0,
        ),
      { what: "the streamed chat's tokens in the usage report", timeoutMs: 10_000 },
    );
    expect(row.promptTokens).toBeGreaterThan(0);
    // The engine sends a role chunk, one chunk per token and a finishing chunk.
    expect(row.completionTokens).toBe(chunks.length - 2);
  });

  it("serves completions, embeddings and images", async () => {
    const openai = client(qwenKey);
    const completion = await openai.completions.create({
      model: "qwen-sim",
      prompt: "once upon",
      max_tokens: 5,
    });
    expect(completion.choices[0]?.text.length).toBeGreaterThan(0);
    const embeddings = await openai.embeddings.create({ model: "qwen-sim", input: ["a", "b"] });
    expect(embeddings.data).toHaveLength(2);
    expect(embeddings.data[0]?.embedding.length).toBeGreaterThan(0);
    const images = await openai.images.generate({
      model: "qwen-sim",
      prompt: "a red square",
      n: 1,
      response_format: "b64_json",
    });
    expect(images.data?.[0]?.b64_json?.length).toBeGreaterThan(0);
  });

  it("passes X-Request-Id through and makes one when none is sent", async () => {
    const body = JSON.stringify({ model: "qwen-sim", input: "x" });
    expect(
      (await post("/embeddings", qwenKey, body, { "x-request-id": "it-req-1" })).headers.get(
        "x-request-id",
      ),
    ).toBe("it-req-1");
    expect((await post("/embeddings", qwenKey, body)).headers.get("x-request-id")).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it("refuses wrong, revoked and expired keys with 401 in OpenAI's shape", async () => {
    const messages = [{ role: "user" as const, content: "hi" }];
    await expect(client("llmgw_nope").models.list()).rejects.toMatchObject({
      status: 401,
      code: "invalid_api_key",
    });
    const flipped = qwenKey.slice(0, -1) + (qwenKey.endsWith("0") ? "1" : "0");
    await expect(client(flipped).models.list()).rejects.toMatchObject({ status: 401 });
    const made = await api.keys.create.mutate({ owner: "user:ada", models: ["*"] });
    await client(made.key).chat.completions.create({ model: "qwen-sim", messages, max_tokens: 2 });
    await api.keys.revoke.mutate({ id: made.view.id });
    await expect(
      client(made.key).chat.completions.create({ model: "qwen-sim", messages }),
    ).rejects.toMatchObject({ status: 401 });
    const shortLived = await api.keys.create.mutate({
      owner: "user:ada",
      models: ["*"],
      expiresInSeconds: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const expired = await fetch(`${v1}/models`, {
      headers: { authorization: `Bearer ${shortLived.key}` },
    });
    expect(expired.status).toBe(401);
    expect(expired.headers.get("content-type")).toMatch(/application\/json/);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toMatch(
      /expired/,
    );
    const noKey = await fetch(`${v1}/models`);
    expect(noKey.status).toBe(401);
  });

  it("answers a model outside the allowlist as OpenAI does: 404 model_not_found", async () => {
    await expect(
      client(qwenKey).chat.completions.create({
        model: "llama-sim",
        messages: [{ role: "user", content: "hi" }],
      }),
    ).rejects.toMatchObject({ status: 404, code: "model_not_found" });
  });

  it("says at once why a model without a ready replica cannot serve", async () => {
    const all = (await api.keys.create.mutate({ owner: "team:ops", models: ["*"] })).key;
    const res = await post(
      "/chat/completions",
      all,
      JSON.stringify({ model: "llama-sim", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("model_not_ready");
  });

  it("names why a model with no room cannot serve, and sends its requests to a fallback once one is set", async () => {
    const huge = {
      ...simGpuModel("qwen-huge", "file:///nonexistent/weights.safetensors"),
      profiles: simGpuModel("x", "", { gpus: 64 }).profiles,
    };
    await api.models.add.mutate({ definition: huge });
    await waitFor(
      async () => (await api.models.get.query({ name: "qwen-huge" })).state === "unplaceable",
      { what: "qwen-huge unplaceable", timeoutMs: 15_000 },
    );
    const body = JSON.stringify({
      model: "qwen-huge",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 3,
    });
    const refused = await post("/chat/completions", qwenKey, body);
    expect(refused.status).toBe(503);
    const error = ((await refused.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("model_unplaceable");
    expect(error.message).toMatch(/cannot be placed/);
    await api.models.setFallbacks.mutate({
      name: "qwen-huge",
      fallbacks: ["llama-sim", "qwen-sim"],
    });
    const served = await post("/chat/completions", qwenKey, body);
    expect(served.status).toBe(200);
    expect(served.headers.get("x-llmgw-fallback-from")).toBe("qwen-huge");
    expect(((await served.json()) as { model: string }).model).toBe("qwen-sim");
  });

  it("limits requests per minute with 429 and Retry-After", async () => {
    const limited = (
      await api.keys.create.mutate({ owner: "team:ml", models: ["qwen*"], requestsPerMinute: 2 })
    ).key;
    const body = JSON.stringify({ model: "qwen-sim", input: "x" });
    expect((await post("/embeddings", limited, body)).status).toBe(200);
    expect((await post("/embeddings", limited, body)).status).toBe(200);
    const refused = await post("/embeddings", limited, body);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      "rate_limit_exceeded",
    );
  });

  it("limits concurrent requests, and a client that leaves frees its slot", async () => {
    const single = (
      await api.keys.create.mutate({ owner: "team:ml", models: ["qwen*"], concurrentMax: 1 })
    ).key;
    const first = await post(
      "/chat/completions",
      single,
      JSON.stringify({
        model: "qwen-sim",
        stream: true,
        max_tokens: 400,
        messages: [{ role: "user", content: "long" }],
      }),
    );
    expect(first.status).toBe(200);
    const reader = must(first.body, "a streamed body").getReader();
    await reader.read();
    const second = await post(
      "/embeddings",
      single,
      JSON.stringify({ model: "qwen-sim", input: "x" }),
    );
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("1");
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe(
      "concurrency_limit_exceeded",
    );
    await reader.cancel();
    await waitFor(
      async () =>
        (await post("/embeddings", single, JSON.stringify({ model: "qwen-sim", input: "x" })))
          .status === 200,
      {
        what: "the slot to be freed after the client left",
        timeoutMs: 5_000,
      },
    );
  });

  it("ends a stream that breaks mid-way with an explicit error the client sees", async () => {
    const stream = await client(qwenKey).chat.completions.create({
      model: "qwen-drop",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 50,
      stream: true,
    });
    const read = async () => {
      for await (const chunk of stream) void chunk;
    };
    await expect(read()).rejects.toThrow(/broke off/);
  });

  it("never answers bad input with a status of 500 or more", async () => {
    const cases: Array<[string, string, Record<string, string>?]> = [
      ["/chat/completions", "{not json"],
      ["/chat/completions", "[]"],
      ["/chat/completions", ""],
      ["/chat/completions", JSON.stringify({ messages: [] })],
      ["/chat/completions", JSON.stringify({ model: 42 })],
      ["/chat/completions", JSON.stringify({ model: "qwen-sim", stream: "yes" })],
      ["/chat/completions", JSON.stringify({ model: "qwen-sim", messages: "nope" })],
      ["/embeddings", JSON.stringify({ model: "qwen-sim" })],
      [
        "/chat/completions",
        "model=qwen-sim",
        { "content-type": "application/x-www-form-urlencoded" },
      ],
      ["/nothing/here", "{}"],
    ];
    for (const [path, body, headers] of cases) {
      const res = await post(path, qwenKey, body, headers);
      expect(res.status, `${path} ${body}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} ${body}`).toBeLessThan(500);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(
        ((await res.json()) as { error: { message: string } }).error.message.length,
      ).toBeGreaterThan(0);
    }
    const wrongMethod = await fetch(`${v1}/chat/completions`, {
      headers: { authorization: `Bearer ${qwenKey}` },
    });
    expect(wrongMethod.status).toBe(405);
  });

  it("opens a replica's breaker after five failures and probes it again after the cool-down", async () => {
    const body = JSON.stringify({ model: "qwen-faulty", input: "x" });
    for (let i = 0; i < 5; i++) expect((await post("/embeddings", qwenKey, body)).status).toBe(500);
    const open = await post("/embeddings", qwenKey, body);
    expect(open.status).toBe(503);
    expect(((await open.json()) as { error: { code: string } }).error.code).toBe(
      "no_healthy_replica",
    );
    expect(Number(open.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    // The probe reaches the engine (its 500 comes back), and its failure opens the breaker again.
    expect((await post("/embeddings", qwenKey, body)).status).toBe(500);
    expect((await post("/embeddings", qwenKey, body)).status).toBe(503);
  });

  it("exposes requests, tokens and breaker state in /metrics", async () => {
    const text = await (await fetch(`${server.apiUrl}/metrics`)).text();
    expect(
      Number(
        /^llmgw_gateway_requests_total\{model="qwen-sim",status="200"\} (\d+)/m.exec(text)?.[1],
      ),
    ).toBeGreaterThan(3);
    expect(
      Number(
        /^llmgw_gateway_tokens_total\{model="qwen-sim",kind="completion"\} (\d+)/m.exec(text)?.[1],
      ),
    ).toBeGreaterThan(0);
    expect(text).toMatch(
      /^llmgw_gateway_endpoint_breaker_open\{model="qwen-faulty",replica="[^"]+"\} 1$/m,
    );
    expect(text).toMatch(
      /^llmgw_gateway_endpoint_breaker_open\{model="qwen-sim",replica="[^"]+"\} 0$/m,
    );
    expect(text).toMatch(
      /^llmgw_gateway_time_to_first_byte_seconds_count\{model="qwen-sim"\} [1-9]/m,
    );
  });

  it("records usage off the request path, with the engine's token counts, and reports it by owner and model", async () => {
    await waitFor(
      async () =>
        (await api.keys.list.query()).find((k) => k.owner === "team:ml" && k.lastUsedAt !== null),
      {
        what: "a key with a last use",
        timeoutMs: 10_000,
      },
    );
    const report = await api.usage.query.query({ owner: "team:ml" });
    const qwen = report.rows.find((r) => r.model === "qwen-sim");
    expect(qwen?.requests).toBeGreaterThan(3);
    expect(qwen?.completionTokens).toBeGreaterThan(0);
    expect(report.rows.find((r) => r.model === "qwen-faulty")?.errors).toBeGreaterThanOrEqual(5);
    expect((await api.usage.query.query({ owner: "team:nobody" })).rows).toEqual([]);
    await expect(
      api.usage.query.query({ since: "2030-01-02T00:00:00Z", until: "2030-01-01T00:00:00Z" }),
    ).rejects.toThrow(/must be before/);
  });
});
