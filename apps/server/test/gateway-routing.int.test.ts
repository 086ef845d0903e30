// The gateway's admission and routing end to end: a real server, a real agent with simulated
// cards and sim-engine replicas started with `--control`, so one replica of a model can be made to
// fail or to report a long queue while its sibling stays healthy. Covers the admission queue,
// weighting by the engines' scraped queues, a retry onto a healthy replica, on-demand models,
// the immediate answers for parked and unplaceable models, and a failed request found in the
// failed-requests list with its node, whose log search returns the request's lines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { otlpAttributes, startOtlpReceiver, waitFor, type OtlpReceiver } from "@llmgw/testing";
import { must } from "@llmgw/domain";
import {
  simGpuModel,
  simWeightsSource,
  startFleet,
  type Api,
  type Fleet,
  type ReadyReplica as Replica,
  type ServerHandle,
} from "./harness";

const chat = (model: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model, messages: [{ role: "user", content: "hi" }], max_tokens: 3, ...extra });

describe("gateway admission and routing", () => {
  let fleet: Fleet;
  let server: ServerHandle;
  let api: Api;
  let key: string;
  let source: string;
  let otlp: OtlpReceiver;

  const post = (path: string, body: string, signal?: AbortSignal) =>
    fetch(`${server.apiUrl}/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
      signal,
    });
  const metricsText = async () => (await fetch(`${server.apiUrl}/metrics`)).text();
  const series = (text: string, name: string, labels: string) =>
    new RegExp(`^${name}\\{${labels}\\} ([0-9.e+-]+)$`, "m").exec(text)?.[1];
  const attempts = async (model: string, replica: string) =>
    Number(
      series(
        await metricsText(),
        "llmgw_gateway_upstream_attempts_total",
        `model="${model}",replica="${replica}"`,
      ) ?? 0,
    );
  const control = async (replica: Replica, body: unknown) => {
    const res = await fetch(`http://${replica.endpoint}/sim/control`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
  };
  const ready = (model: string, count: number) => fleet.readyReplicas(model, count, 90_000);

  beforeAll(async () => {
    source = await simWeightsSource("it-gwr-weights");
    otlp = await startOtlpReceiver();
    fleet = await startFleet({
      env: {
        LLMGW_OTLP_ENDPOINT: otlp.url,
        LLMGW_TRACE_EXPORT_DELAY_MS: "200",
        LLMGW_RESYNC_INTERVAL_MS: "300",
        LLMGW_BREAKER_OPEN_MS: "30000",
        LLMGW_SCRAPE_INTERVAL_MS: "250",
        LLMGW_ENDPOINT_MAX_IN_FLIGHT: "1",
        LLMGW_QUEUE_SIZE: "1",
        LLMGW_QUEUE_WAIT_MS: "1500",
        LLMGW_ON_DEMAND_WAIT_MS: "90000",
        // "crashy" must reach parking quickly: its restarts wait 0.2 s, doubling.
        LLMGW_FAILURE_BACKOFF_MS: "200",
      },
      agents: [{ name: "it-gwr-gpu", profile: "h100x8" }],
    });
    ({ server, api } = fleet);
    // Two tokens a second: a streamed answer holds its endpoint for several seconds.
    await api.models.add.mutate({
      definition: simGpuModel("solo", source, { args: ["--tokens-per-second", "2"] }),
    });
    await api.models.add.mutate({
      definition: simGpuModel("pair", source, { args: ["--control"], min: 2, max: 2 }),
    });
    await ready("solo", 1);
    await ready("pair", 2);
    key = (await api.keys.create.mutate({ owner: "team:ml", models: ["*"] })).key;
  });

  afterAll(async () => {
    await fleet?.stop(Boolean(process.env.IT_DUMP));
    await otlp?.close();
  });

  it("queues a request while every endpoint is full, refuses one past the queue's size and one that waited too long", async () => {
    const first = await post("/chat/completions", chat("solo", { stream: true, max_tokens: 400 }));
    expect(first.status).toBe(200);
    const reader = must(first.body, "a streamed body").getReader();
    await reader.read();
    const queuedAt = Date.now();
    const queued = post("/embeddings", JSON.stringify({ model: "solo", input: "x" }));
    await waitFor(
      async () =>
        series(await metricsText(), "llmgw_gateway_queue_depth", 'model="solo"') === "1" ||
        undefined,
      { what: "one request in solo's queue", timeoutMs: 5_000 },
    );
    const full = await post("/embeddings", JSON.stringify({ model: "solo", input: "x" }));
    expect(full.status).toBe(429);
    expect(Number(full.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const fullError = ((await full.json()) as { error: { code: string; message: string } }).error;
    expect(fullError.code).toBe("model_queue_full");
    expect(fullError.message).toMatch(/model "solo" is busy/);
    const timedOut = await queued;
    expect(timedOut.status).toBe(429);
    expect(Date.now() - queuedAt).toBeGreaterThanOrEqual(1_400);
    expect(((await timedOut.json()) as { error: { code: string } }).error.code).toBe(
      "model_queue_timeout",
    );
    // A queued request goes in as soon as the request ahead of it ends.
    const waiting = post("/embeddings", JSON.stringify({ model: "solo", input: "y" }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await reader.cancel();
    expect((await waiting).status).toBe(200);
  });

  it("sends requests away from a replica whose engine reports a long queue", async () => {
    const [a, b] = (await ready("pair", 2)) as [Replica, Replica];
    await control(a, { extra_waiting: 50 });
    await waitFor(
      async () =>
        series(
          await metricsText(),
          "llmgw_gateway_endpoint_engine_waiting",
          `model="pair",replica="${a.id}"`,
        ) === "50" || undefined,
      { what: "the gateway to read a's queue", timeoutMs: 10_000 },
    );
    const [aBefore, bBefore] = [await attempts("pair", a.id), await attempts("pair", b.id)];
    for (let i = 0; i < 8; i++)
      expect((await post("/chat/completions", chat("pair"))).status).toBe(200);
    expect((await attempts("pair", a.id)) - aBefore).toBe(0);
    expect((await attempts("pair", b.id)) - bBefore).toBe(8);
  });

  it("does not take a replica it cannot measure for an idle one", async () => {
    const [a, b] = (await ready("pair", 2)) as [Replica, Replica];
    // a's /metrics fails; b reports 3 waiting. Were a's unknown queue read as 0, a would get all.
    await control(a, { extra_waiting: 0, metrics_status: 500 });
    await control(b, { extra_waiting: 3 });
    await waitFor(
      async () => {
        const text = await metricsText();
        const aSeen = series(
          text,
          "llmgw_gateway_endpoint_engine_waiting",
          `model="pair",replica="${a.id}"`,
        );
        const bSeen = series(
          text,
          "llmgw_gateway_endpoint_engine_waiting",
          `model="pair",replica="${b.id}"`,
        );
        return (aSeen === undefined && bSeen === "3") || undefined;
      },
      { what: "a unknown and b at 3", timeoutMs: 10_000 },
    );
    const [aBefore, bBefore] = [await attempts("pair", a.id), await attempts("pair", b.id)];
    for (let i = 0; i < 8; i++)
      expect((await post("/chat/completions", chat("pair"))).status).toBe(200);
    expect((await attempts("pair", a.id)) - aBefore).toBeGreaterThanOrEqual(2);
    expect((await attempts("pair", b.id)) - bBefore).toBeGreaterThanOrEqual(2);
    await control(a, { metrics_status: null });
    await control(b, { extra_waiting: 0 });
  });

  it("retries a request that failed before any byte on the healthy replica", async () => {
    const [a, b] = (await ready("pair", 2)) as [Replica, Replica];
    await control(a, { faults: ["status-5xx:1"] });
    const [aBefore, bBefore] = [await attempts("pair", a.id), await attempts("pair", b.id)];
    for (let i = 0; i < 4; i++) {
      const res = await post("/chat/completions", chat("pair"));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { choices: unknown[] }).choices).toHaveLength(1);
    }
    // a really was tried (and failed), and every one of its failures was retried on b.
    const aTried = (await attempts("pair", a.id)) - aBefore;
    expect(aTried).toBeGreaterThanOrEqual(1);
    expect((await attempts("pair", b.id)) - bBefore).toBe(4);
    await control(a, { faults: [] });
  });

  it("exports each request's spans over OTLP, under the caller's trace, with GenAI attributes and no text", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpan = "00f067aa0ba902b7";
    const requestId = "trace-it-1";
    const res = await fetch(`${server.apiUrl}/v1/chat/completions`, {
      method: "POST",
      headers: {
        ...{ authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...{ traceparent: `00-${traceId}-${callerSpan}-01`, "x-request-id": requestId },
      },
      body: chat("pair", { temperature: 0.25, max_tokens: 2, stream: true, top_p: "loose" }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const ours = await waitFor(
      async () => {
        const spans = otlp.spans.filter((s) => s.span.traceId === traceId);
        return spans.some((s) => s.span.name === "chat pair") ? spans : undefined;
      },
      { what: "the request's spans at the OTLP receiver", timeoutMs: 30_000 },
    );
    expect(otlp.contentTypes[0]).toBe("application/x-protobuf");
    const root = must(
      ours.find((s) => s.span.name === "chat pair"),
      "the request's span",
    );
    expect(root.resource["service.name"]).toBe("llmgw");
    expect(root.span).toMatchObject({ kind: "SPAN_KIND_SERVER", parentSpanId: callerSpan });
    expect(otlpAttributes(root.span)).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "pair",
      "gen_ai.response.model": "pair",
      "gen_ai.request.temperature": 0.25,
      "gen_ai.request.max_tokens": "2",
      "gen_ai.usage.output_tokens": "2",
      "http.response.status_code": "200",
      "llmgw.request_id": requestId,
      "llmgw.stream": true,
    });
    // The outcome's usage and endpoint reach the span too (the gateway hands them over by name).
    expect(otlpAttributes(root.span)["gen_ai.usage.input_tokens"]).toMatch(/^[1-9]\d*$/);
    expect(otlpAttributes(root.span)["llmgw.replica"]).toMatch(/\S/);
    // A setting that is not a number is left out, not guessed.
    expect(otlpAttributes(root.span)).not.toHaveProperty("gen_ai.request.top_p");
    expect(root.span.events?.map((e) => e.name)).toEqual(["llmgw.first_byte"]);
    const children = ours.filter((s) => s.span.parentSpanId === root.span.spanId);
    expect(children.map((s) => s.span.name).sort()).toEqual([
      ...["llmgw.admission", "llmgw.attempt", "llmgw.guard", "llmgw.on_demand", "llmgw.queue"],
      "llmgw.upstream",
    ]);
    const attempt = must(
      children.find((s) => s.span.name === "llmgw.attempt"),
      "the attempt",
    );
    expect(otlpAttributes(attempt.span)).toMatchObject({ "http.response.status_code": "200" });
    expect(otlpAttributes(attempt.span)["url.full"]).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions$/,
    );
    // What was asked and answered never leaves on a span.
    expect(JSON.stringify(ours)).not.toMatch(/"hi"|content/);

    // The engine got the request id and the attempt's traceparent, and the node finds its lines.
    const found = await api.logs.get.query({ node: "it-gwr-gpu", requestId, everySource: true });
    expect(found.linesSearched).toBeGreaterThan(found.lines.length);
    expect(found.records.map((r) => r.message)).toEqual([
      `Received request chatcmpl-${requestId}`,
      `Finished request chatcmpl-${requestId}`,
    ]);
    expect(found.records.every((r) => r.requestId === requestId)).toBe(true);
    const arrival = JSON.parse(must(found.lines[0], "the engine's arrival line")) as {
      traceparent?: string;
    };
    expect(arrival.traceparent).toBe(`00-${traceId}-${attempt.span.spanId}-01`);
    expect(found.records.map((r) => r.source)).toEqual([
      otlpAttributes(attempt.span)["llmgw.endpoint"],
      otlpAttributes(attempt.span)["llmgw.endpoint"],
    ]);
    const other = await api.logs.get.query({ node: "it-gwr-gpu", requestId: "never-sent-1" });
    expect(other).toMatchObject({ lines: [], records: [] });
  });

  it("places an on-demand model when a request asks for it, and serves that request", async () => {
    await api.models.add.mutate({
      definition: { ...simGpuModel("lazy", source, { min: 0, max: 1 }), on_demand: true },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await api.replicas.list.query({ model: "lazy" })).length).toBe(0);
    const res = await post("/chat/completions", chat("lazy"));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { model: string }).model).toBe("lazy");
    expect(
      (await api.replicas.list.query({ model: "lazy" })).filter((r) => r.phase === "ready"),
    ).toHaveLength(1);
  });

  it("forgets a removed on-demand model's requests: added again, it starts nothing", async () => {
    const live = async () =>
      (await api.replicas.list.query({ model: "lazy" })).filter((r) => r.phase !== "stopped");
    if ((await live()).length === 0)
      expect((await post("/chat/completions", chat("lazy"))).status).toBe(200);
    await api.models.remove.mutate({ name: "lazy" });
    await waitFor(async () => ((await live()).length === 0 ? true : undefined), {
      what: "lazy's replica stopped",
      timeoutMs: 30_000,
    });
    await api.models.add.mutate({
      definition: { ...simGpuModel("lazy", source, { min: 0, max: 1 }), on_demand: true },
    });
    // Several resyncs (every 300 ms) with nobody asking: the old requests must not count.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await live()).toEqual([]);
  });

  it("answers at once, with the placement's reasons, when an on-demand model fits nowhere", async () => {
    await api.models.add.mutate({
      definition: {
        ...simGpuModel("lazy-huge", source, { min: 0, max: 1 }),
        profiles: simGpuModel("x", source, { gpus: 64 }).profiles,
        on_demand: true,
      },
    });
    const startedAt = Date.now();
    const res = await post("/chat/completions", chat("lazy-huge"));
    expect(res.status).toBe(503);
    const error = ((await res.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("model_unplaceable");
    expect(error.message).toMatch(/model "lazy-huge" cannot be placed: .*\(.*it-gwr-gpu/);
    expect(Date.now() - startedAt).toBeLessThan(15_000);
  });

  it("answers a parked model at once with its last error", async () => {
    await api.models.add.mutate({
      definition: simGpuModel("crashy", source, { args: ["--fault", "crash-after:0"] }),
    });
    await waitFor(
      async () => (await api.models.get.query({ name: "crashy" })).isParked || undefined,
      {
        what: "crashy parked",
        timeoutMs: 90_000,
      },
    );
    const res = await post("/chat/completions", chat("crashy"));
    expect(res.status).toBe(503);
    const error = ((await res.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("model_parked");
    expect(error.message).toMatch(
      /model "crashy" is parked after 5 failed starts: engine exited .+; an operator must run `llmgw ctl retry crashy`/s,
    );
  });

  it("lists a request that failed with the node it ran on, whose log search finds its lines", async () => {
    const pair = (await ready("pair", 2)) as [Replica, Replica];
    for (const replica of pair) await control(replica, { faults: ["status-5xx:1"] });
    const requestId = "failed-it-1";
    const res = await fetch(`${server.apiUrl}/v1/chat/completions`, {
      method: "POST",
      headers: {
        ...{ authorization: `Bearer ${key}`, "content-type": "application/json" },
        "x-request-id": requestId,
      },
      body: chat("pair"),
    });
    expect(res.status).toBe(500);
    await res.text();
    for (const replica of pair) await control(replica, { faults: [] });

    // Usage rows are written about once a second, off the request path.
    const failed = await waitFor(
      async () =>
        (await api.usage.failed.query({ model: "pair" })).requests.find(
          (r) => r.requestId === requestId,
        ),
      { what: "the failed request in usage.failed", timeoutMs: 15_000 },
    );
    const node = must(
      (await api.nodes.list.query()).find((n) => n.name === "it-gwr-gpu"),
      "the node",
    );
    expect(failed).toMatchObject({ model: "pair", status: 500, noNodeReason: null });
    expect(failed).toMatchObject({ nodeId: node.id, nodeName: "it-gwr-gpu", isReplicaGone: false });
    expect(pair.map((r) => r.id)).toContain(failed.replicaId);
    expect(key.startsWith(`llmgw_${must(failed.keyPrefix, "the key's prefix")}_`)).toBe(true);

    // The node found from the replica holds the request's lines: the engine that answered 500.
    const found = await api.logs.get.query({
      node: must(failed.nodeId, "the failed request's node"),
      requestId,
      everySource: true,
    });
    const answered = found.records.filter((r) => r.source === failed.replicaId);
    expect(answered.map((r) => r.message)).toEqual([
      `Received request chatcmpl-${requestId}`,
      `Finished request chatcmpl-${requestId}`,
    ]);
    expect(found.lines.some((line) => /"status":500/.test(line))).toBe(true);
  });
});
