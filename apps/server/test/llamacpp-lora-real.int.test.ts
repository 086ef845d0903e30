// A real LoRA adapter on a real llama.cpp: the tiny llama GGUF and a tiny LoRA GGUF for it, both
// made by the project's own tooling (packages/testing), served by a real llama-server the agent
// starts with the adapter loaded. `MODEL:ADAPTER` through /v1 answers with the adapter applied;
// the base model's name answers without it, even when the client asks llama.cpp for it itself.
//
// The llama.cpp build comes from the shared engine cache (scripts/build-llamacpp.mjs builds it
// there when missing, as llamacpp-real.int.test.ts does: about 45 minutes on a 2-core machine).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { must } from "@llmgw/domain";
import {
  startCpuAgent,
  tempDir,
  tinyLlamaGguf,
  tinyLlamaLoraGguf,
  enginePid,
  ensureLlamacppBuilt,
  LLAMACPP_BUILD_TIMEOUT_MS,
  LLAMACPP_ENGINE_DIR,
} from "@llmgw/testing";
import { startFleet, type Fleet } from "./harness";

const NODE = "it-cpu-lora";
const MODEL = "tiny-llama";

describe("a real LoRA adapter on a real llama.cpp", () => {
  let fleet: Fleet;
  let dataDir: string;
  let endpoint: string;
  let loraFile: string;
  let baseKey: string;
  let adapterKey: string;
  const client = (key: string) => new OpenAI({ apiKey: key, baseURL: fleet.v1, maxRetries: 0 });
  // Greedy and to a fixed length, so the same model gives the same text every time.
  const ask = async (key: string, model: string, extra: Record<string, unknown> = {}) => {
    const answer = await client(key).chat.completions.create({
      model,
      messages: [{ role: "user", content: "hello the model" }],
      max_tokens: 8,
      temperature: 0,
      ...{ ignore_eos: true, ...extra },
    });
    expect(answer.usage?.completion_tokens).toBe(8);
    return must(answer.choices[0]?.message.content, "the answer's text");
  };

  beforeAll(async () => {
    ensureLlamacppBuilt();
    const files = (await tempDir("it-lora-gguf")).path;
    const modelFile = join(files, "tiny-llama.gguf");
    loraFile = join(files, "tiny-sql-lora.gguf");
    writeFileSync(modelFile, tinyLlamaGguf());
    writeFileSync(loraFile, tinyLlamaLoraGguf());
    fleet = await startFleet({ env: { LLMGW_RESYNC_INTERVAL_MS: "300" } });
    dataDir = (await tempDir("it-agent-cpu-lora")).path;
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
        adapters: [{ name: "sql", source: loraFile, rank: 4 }],
      },
    });
    endpoint = must((await fleet.readyReplicas(MODEL, 1, 120_000))[0], "a ready replica").endpoint;
    baseKey = (await fleet.api.keys.create.mutate({ owner: "team:ml", models: [MODEL] })).key;
    adapterKey = (await fleet.api.keys.create.mutate({ owner: "team:ml", models: ["tiny*"] })).key;
  }, LLAMACPP_BUILD_TIMEOUT_MS + 180_000);

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  it("starts llama-server with the adapter loaded, listed by its /lora-adapters at scale 0", async () => {
    const pid = enginePid(dataDir);
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    expect(argv[0]).toMatch(/llamacpp-.*\/bin\/llama-server$/);
    expect(argv[argv.indexOf("--lora-scaled") + 1]).toBe(`${loraFile}:0`);
    const apiKey = /(?:^|\0)LLAMA_API_KEY=([^\0]*)/.exec(
      readFileSync(`/proc/${pid}/environ`, "utf8"),
    )?.[1];
    const listed = await fetch(`http://${endpoint}/lora-adapters`, {
      headers: { authorization: `Bearer ${must(apiKey, "the engine's key")}` },
    });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([
      expect.objectContaining({ id: 0, path: loraFile, scale: 0 }),
    ]);
  });

  it("answers MODEL:ADAPTER through /v1 with the adapter applied, the base name without it", async () => {
    const models = await client(adapterKey).models.list();
    expect(models.data.map((model) => model.id)).toEqual(
      expect.arrayContaining([MODEL, `${MODEL}:sql`]),
    );
    const adapted = await ask(adapterKey, `${MODEL}:sql`);
    const base = await ask(adapterKey, MODEL);
    expect(adapted.length).toBeGreaterThan(0);
    // The adapter's weights change what the tiny model answers; asked again, each is the same.
    expect(adapted).not.toBe(base);
    expect(await ask(adapterKey, `${MODEL}:sql`)).toBe(adapted);
    expect(await ask(baseKey, MODEL)).toBe(base);
  });

  it("does not let a key allowed only the base model apply the adapter through llama.cpp's own lora field", async () => {
    await expect(ask(baseKey, `${MODEL}:sql`)).rejects.toThrow();
    const base = await ask(baseKey, MODEL);
    expect(await ask(baseKey, MODEL, { lora: [{ id: 0, scale: 1 }] })).toBe(base);
  });
});
