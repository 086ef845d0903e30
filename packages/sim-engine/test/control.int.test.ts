// PUT /sim/control: tests change one running replica's faults and reported queue, so a model's
// replicas can differ (one failing, one healthy) although they share the profile's args.
import { describe, expect, it } from "vitest";
import { parseEngineMetrics, VLLM_METRIC_NAMES } from "@llmgw/engines";
import { postJson, startSim } from "./helpers";

const chat = { model: "sim-model", messages: [{ role: "user", content: "hi" }], max_tokens: 2 };
const put = (baseUrl: string, body: unknown) =>
  fetch(`${baseUrl}/sim/control`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("PUT /sim/control", () => {
  it("is not there without --control", async () => {
    const sim = await startSim(["--ready-after-ms", "0"]);
    expect((await put(sim.baseUrl, { faults: ["status-5xx:1"] })).status).toBe(404);
    await sim.proc.stop();
  });

  it("replaces faults, adds to the waiting gauge and can fail /metrics", async () => {
    const sim = await startSim(["--ready-after-ms", "0", "--control", "--ttft-ms", "5"]);
    expect((await postJson(sim.baseUrl, "/v1/chat/completions", chat)).status).toBe(200);
    expect((await put(sim.baseUrl, { faults: ["status-5xx:1"] })).status).toBe(200);
    expect((await postJson(sim.baseUrl, "/v1/chat/completions", chat)).status).toBe(500);
    expect((await put(sim.baseUrl, { faults: [] })).status).toBe(200);
    expect((await postJson(sim.baseUrl, "/v1/chat/completions", chat)).status).toBe(200);

    expect((await put(sim.baseUrl, { extra_waiting: 7 })).status).toBe(200);
    const text = await (await fetch(`${sim.baseUrl}/metrics`)).text();
    expect(parseEngineMetrics(text, VLLM_METRIC_NAMES).waitingRequests).toBe(7);
    expect((await put(sim.baseUrl, { metrics_status: 500 })).status).toBe(200);
    expect((await fetch(`${sim.baseUrl}/metrics`)).status).toBe(500);

    const refused = await put(sim.baseUrl, { faults: ["explode:1"] });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /unknown fault "explode"/,
    );
    expect((await put(sim.baseUrl, { extra_waiting: -1 })).status).toBe(400);
    await sim.proc.stop();
  });
});
