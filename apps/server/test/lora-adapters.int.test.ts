// LoRA adapters end to end: a real server, a real agent with simulated cards, the simulated engine
// (which loads adapters the way vLLM's --lora-modules does, labelled simulated) and the official
// `openai` client. The adapter's file is served by a real HTTP server the test starts, so the
// agent's fetch into its weight cache is the real one.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import { simGpuModel, simWeightsSource, startFleet, type Api, type Fleet } from "./harness";

describe("LoRA adapters", () => {
  let fleet: Fleet;
  let api: Api;
  let files: Server;
  let filesUrl: string;
  let baseSource: string;
  const fetched: string[] = [];
  let adapterKey: string;
  let baseOnlyKey: string;

  const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: fleet.v1, maxRetries: 0 });
  const definition = (adapters: { name: string; source: string }[]) => ({
    ...simGpuModel("qwen-lora", baseSource),
    adapters,
  });
  const ask = (key: string, model: string) =>
    client(key).chat.completions.create({
      model,
      messages: [{ role: "user", content: "write a query for last week's orders" }],
      max_tokens: 12,
    });

  beforeAll(async () => {
    files = createServer((req, res) => {
      fetched.push(req.url ?? "");
      res.writeHead(200, { "content-type": "application/octet-stream" }).end("simulated lora");
    });
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    baseSource = await simWeightsSource("it-lora-weights");
    fleet = await startFleet({
      env: { LLMGW_RESYNC_INTERVAL_MS: "300" },
      agents: [{ name: "it-lora-gpu", profile: "h100x8" }],
    });
    api = fleet.api;
    await api.models.add.mutate({
      definition: definition([
        { name: "sql", source: `${filesUrl}/sql-lora/adapter_model.safetensors` },
      ]),
    });
    await fleet.readyReplicas("qwen-lora", 1);
    adapterKey = (await api.keys.create.mutate({ owner: "team:sql", models: ["qwen-lora*"] })).key;
    baseOnlyKey = (await api.keys.create.mutate({ owner: "team:base", models: ["qwen-lora"] })).key;
  });

  afterAll(async () => {
    await fleet?.stop(Boolean(process.env.IT_DUMP));
    files?.close();
  });

  it("fetches the adapter from its URL and lists it as MODEL:ADAPTER to keys allowed it", async () => {
    expect(fetched).toContain("/sql-lora/adapter_model.safetensors");
    const listed = (await client(adapterKey).models.list()).data.map((m) => m.id);
    expect(listed.sort()).toEqual(["qwen-lora", "qwen-lora:sql"]);
    const baseOnly = (await client(baseOnlyKey).models.list()).data.map((m) => m.id);
    expect(baseOnly).toEqual(["qwen-lora"]);
  });

  it("answers MODEL:ADAPTER through the adapter, not the base model", async () => {
    const adapted = await ask(adapterKey, "qwen-lora:sql");
    const base = await ask(adapterKey, "qwen-lora");
    expect(adapted.model).toBe("qwen-lora:sql");
    expect(base.model).toBe("qwen-lora");
    const adaptedText = adapted.choices[0]?.message.content ?? "";
    expect(adaptedText.length).toBeGreaterThan(0);
    // The simulated adapter picks its own words for the same prompt.
    expect(adaptedText).not.toBe(base.choices[0]?.message.content);
  });

  it("refuses an adapter outside the key's allowlist, and one the model does not have", async () => {
    await expect(ask(baseOnlyKey, "qwen-lora:sql")).rejects.toMatchObject({ status: 404 });
    await expect(ask(adapterKey, "qwen-lora:legal")).rejects.toMatchObject({
      status: 404,
      code: "model_not_found",
    });
  });

  it("counts usage by the adapter's name", async () => {
    const row = await waitFor(
      async () =>
        (await api.usage.query.query({ owner: "team:sql" })).rows.find(
          (r) => r.model === "qwen-lora:sql" && r.completionTokens > 0,
        ),
      { what: "the adapter's usage row", timeoutMs: 30_000 },
    );
    expect(row.promptTokens).toBeGreaterThan(0);
  });

  it("refuses a pickled adapter when it is added, saying how to fix it", async () => {
    await expect(
      api.models.add.mutate({
        definition: definition([{ name: "evil", source: `${filesUrl}/evil/adapter_model.bin` }]),
      }),
    ).rejects.toThrow(/adapter "evil".*Python pickle \(\.bin\).*adapter_model\.safetensors/);
  });

  it("adding an adapter replaces the replica with one that serves it", async () => {
    const before = (await fleet.readyReplicas("qwen-lora", 1))[0]?.id;
    await api.models.add.mutate({
      definition: definition([
        { name: "sql", source: `${filesUrl}/sql-lora/adapter_model.safetensors` },
        { name: "legal", source: `${filesUrl}/legal-lora/adapter_model.safetensors` },
      ]),
    });
    await waitFor(
      async () => {
        const ready = await fleet.readyReplicas("qwen-lora", 1, 60_000);
        return ready.length === 1 && ready[0]?.id !== before ? ready : undefined;
      },
      { what: "a new replica with the second adapter", timeoutMs: 60_000 },
    );
    const answer = await waitFor(
      async () => ask(adapterKey, "qwen-lora:legal").catch(() => undefined),
      { what: "an answer from the new adapter", timeoutMs: 30_000 },
    );
    expect(answer.model).toBe("qwen-lora:legal");
    expect(fetched).toContain("/legal-lora/adapter_model.safetensors");
  });
});
