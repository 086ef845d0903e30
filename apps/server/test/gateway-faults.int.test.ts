// The /v1 gateway under engine faults, end to end: a real server, a real agent with simulated
// cards, and sim-engine replicas told to fail through their profile's `--fault` args. Upstream
// attempts are read from the gateway's own `llmgw_gateway_upstream_attempts_total` counter.
// Also drives the gateway with a second client, the Vercel `ai` SDK.
//
// A retry onto the healthy replica when one replica of a model fails is in
// gateway-routing.int.test.ts, which changes one replica's faults through sim-engine's --control.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import {
  simGpuModel,
  simWeightsSource,
  startFleet,
  type Fleet,
  type ServerHandle,
} from "./harness";

describe("the /v1 gateway under engine faults", () => {
  let fleet: Fleet;
  let server: ServerHandle;
  let v1: string;
  let key: string;

  const post = (path: string, body: unknown) =>
    fetch(`${v1}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  /** The sum of the gateway's upstream attempts for one model, over all its replicas. */
  async function attempts(model: string): Promise<number> {
    const text = await (await fetch(`${server.apiUrl}/metrics`)).text();
    const pattern = new RegExp(
      `^llmgw_gateway_upstream_attempts_total\\{model="${model}",replica="[^"]+"\\} (\\d+)$`,
      "gm",
    );
    return [...text.matchAll(pattern)].reduce((sum, m) => sum + Number(m[1]), 0);
  }

  beforeAll(async () => {
    const source = await simWeightsSource("it-gwf-weights");
    fleet = await startFleet({
      // Breakers stay open for the longest allowed (30 s), so no probe adds attempts mid-count.
      env: { LLMGW_RESYNC_INTERVAL_MS: "300", LLMGW_BREAKER_OPEN_MS: "30000" },
      agents: [{ name: "it-gwf-gpu", profile: "h100x8" }],
    });
    ({ server, v1 } = fleet);
    const { api } = fleet;
    await api.models.add.mutate({ definition: simGpuModel("sim-ok", source) });
    await api.models.add.mutate({
      definition: simGpuModel("sim-all-fail", source, {
        args: ["--fault", "status-5xx:1"],
        min: 2,
        max: 2,
      }),
    });
    await api.models.add.mutate({
      definition: simGpuModel("sim-drop", source, {
        args: ["--fault", "drop-stream:3"],
        min: 2,
        max: 2,
      }),
    });
    await api.models.add.mutate({
      definition: simGpuModel("sim-half", source, {
        args: ["--fault", "status-5xx:0.5"],
        min: 2,
        max: 2,
      }),
    });
    // Answers (non-streaming) only after 4 s, so a client can hang up before the headers.
    await api.models.add.mutate({
      definition: simGpuModel("sim-slow", source, { args: ["--ttft-ms", "4000"] }),
    });
    await fleet.readyReplicas("sim-ok", 1);
    await fleet.readyReplicas("sim-slow", 1);
    await fleet.readyReplicas("sim-half", 2);
    await fleet.readyReplicas("sim-all-fail", 2);
    await fleet.readyReplicas("sim-drop", 2);
    key = (await api.keys.create.mutate({ owner: "team:ml", models: ["sim-*"] })).key;
  });

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  it("passes a plain answer on with the engine's length, not re-chunked", async () => {
    const answer = await post("/chat/completions", {
      model: "sim-ok",
      messages: [{ role: "user", content: "hi" }],
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect(answer.status).toBe(200);
    expect(answer.headers.get("transfer-encoding")).toBeNull();
    expect(answer.headers.get("content-length")).toBe(String(bytes.length));
    expect(JSON.parse(bytes.toString()).object).toBe("chat.completion");
  });

  it("keeps upstream attempts within 1.2 × client requests when every replica fails (R5)", async () => {
    const requests = 20;
    const before = await attempts("sim-all-fail");
    const statuses: number[] = [];
    for (let i = 0; i < requests; i++) {
      const res = await post("/chat/completions", {
        model: "sim-all-fail",
        messages: [{ role: "user", content: `hi ${i}` }],
        max_tokens: 4,
      });
      statuses.push(res.status);
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.status).toBeLessThan(600);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      const body = (await res.json()) as { error?: { message?: unknown; type?: unknown } };
      expect(typeof body.error?.message).toBe("string");
      expect(typeof body.error?.type).toBe("string");
    }
    const made = (await attempts("sim-all-fail")) - before;
    // Both replicas were really tried (the engines' 500s came back), and breakers then held off.
    expect(statuses).toContain(500);
    expect(statuses).toContain(503);
    expect(made).toBeGreaterThanOrEqual(2);
    expect(made).toBeLessThanOrEqual(1.2 * requests);
  });

  it("keeps attempts within 1.2 × requests across requests when failures are too scattered to open a breaker", async () => {
    // Half of all answers fail. With one retry per request and nothing else, 40 requests would
    // cost about 60 attempts; the retry budget shared by the model's requests holds them to 48.
    const requests = 40;
    const before = await attempts("sim-half");
    const statuses = new Set<number>();
    // Five failures in a row on one replica may still open its breaker by chance; requests
    // answered then without any attempt (503 no_healthy_replica) reached no engine.
    let unsent = 0;
    for (let i = 0; i < requests; i++) {
      const res = await post("/embeddings", { model: "sim-half", input: `x${i}` });
      statuses.add(res.status);
      const body = await res.text();
      if (res.status === 503 && body.includes("no_healthy_replica")) unsent += 1;
    }
    const made = (await attempts("sim-half")) - before;
    expect(statuses).toContain(200);
    expect(statuses).toContain(500);
    // Some requests were retried (more attempts than requests that reached an engine) ...
    expect(made).toBeGreaterThan(requests - unsent);
    // ... and the budget shared by all of them held the total within 1.2 × the client's requests.
    expect(made).toBeLessThanOrEqual(1.2 * requests);
  });

  it("never counts clients that hang up before the answer against the replica's breaker, and records them as 499", async () => {
    const chat = { model: "sim-slow", messages: [{ role: "user", content: "hi" }] };
    // Each client leaves 1.5 s in, long before sim-slow's first token (4 s), and late enough that
    // its request has reached the gateway even on a loaded runner: one that gave up sooner than
    // that (300 ms here once) may never reach the server, which then cannot count its 499.
    const hangUps = Array.from({ length: 8 }, () =>
      fetch(`${v1}/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(chat),
        signal: AbortSignal.timeout(1_500),
      }).then(
        () => "answered",
        (error: unknown) => (error as Error).name,
      ),
    );
    expect(new Set(await Promise.all(hangUps))).toEqual(new Set(["TimeoutError"]));
    // Eight hang-ups with a single replica: had they counted, its breaker would now be open (503).
    const answer = await post("/chat/completions", chat);
    expect(answer.status).toBe(200);
    const metrics = await (await fetch(`${server.apiUrl}/metrics`)).text();
    expect(metrics).toMatch(/^llmgw_gateway_endpoint_breaker_open\{model="sim-slow",[^}]*\} 0$/m);
    // Each hang-up is the client's leaving (499), not an unreachable upstream (502): a 502 in the
    // usage rows and metrics would tell an operator the replica failed.
    await waitFor(
      async () =>
        /^llmgw_gateway_requests_total\{model="sim-slow",status="499"\} 8$/m.test(
          await (await fetch(`${server.apiUrl}/metrics`)).text(),
        ),
      { what: "eight 499s for sim-slow in the gateway's metrics", timeoutMs: 10_000 },
    );
    const after = await (await fetch(`${server.apiUrl}/metrics`)).text();
    expect(after).not.toMatch(/^llmgw_gateway_requests_total\{model="sim-slow",status="502"\}/m);
  });

  it("does not retry a stream that breaks after its first bytes, and ends it with an explicit error", async () => {
    const before = await attempts("sim-drop");
    const res = await post("/chat/completions", {
      model: "sim-drop",
      messages: [{ role: "user", content: "tell me a long story" }],
      max_tokens: 50,
      stream: true,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const events = (await res.text())
      .split("\n\n")
      .map((e) => e.trim())
      .filter((e) => e.startsWith("data: "))
      .map((e) => e.slice("data: ".length));
    expect(events).not.toContain("[DONE]");
    const parsed = events.map(
      (e) =>
        JSON.parse(e) as {
          choices?: Array<{ delta?: { content?: string } }>;
          error?: { code?: string };
        },
    );
    const chunks = parsed.slice(0, -1);
    // The chunks the engine sent before the drop reached the client, then one error event.
    expect(chunks.length).toBeGreaterThanOrEqual(1);
    expect(chunks.length).toBeLessThanOrEqual(3);
    for (const chunk of chunks) expect(chunk.choices).toBeDefined();
    expect(parsed.at(-1)?.error?.code).toBe("upstream_interrupted");
    expect((await attempts("sim-drop")) - before).toBe(1);
    // The usage row keeps the code, so the cut stream is listed among the failed requests.
    const requestId = res.headers.get("x-request-id");
    const listed = await waitFor(
      async () =>
        (await fleet.api.usage.failed.query({ model: "sim-drop" })).requests.find(
          (r) => r.requestId === requestId,
        ),
      { what: "the cut stream in usage.failed", timeoutMs: 15_000 },
    );
    expect(listed).toMatchObject({ status: 200, errorCode: "upstream_interrupted" });
  });

  describe("with the Vercel ai SDK as the client", () => {
    const provider = () =>
      createOpenAICompatible({ name: "llmgw", baseURL: v1, apiKey: key, includeUsage: true });

    it("generates text and reports usage", async () => {
      const result = await generateText({
        model: provider().chatModel("sim-ok"),
        prompt: "hello",
        maxOutputTokens: 8,
        maxRetries: 0,
      });
      expect(result.text.length).toBeGreaterThan(0);
      expect(result.usage.outputTokens).toBeGreaterThan(0);
      expect(result.usage.inputTokens).toBeGreaterThan(0);
    });

    it("streams text and reports usage at the end", async () => {
      const result = streamText({
        model: provider().chatModel("sim-ok"),
        prompt: "tell me something",
        maxOutputTokens: 12,
        maxRetries: 0,
      });
      const parts: string[] = [];
      for await (const part of result.textStream) parts.push(part);
      expect(parts.length).toBeGreaterThan(1);
      expect(parts.join("").length).toBeGreaterThan(0);
      const usage = await result.usage;
      expect(usage.outputTokens).toBeGreaterThan(0);
      expect(usage.inputTokens).toBeGreaterThan(0);
    });
  });
});
