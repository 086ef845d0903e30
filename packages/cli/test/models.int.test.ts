// `llmgw ctl` on the catalog, against a real server process with a simulated CPU node: add from a
// file and from a preset, refusals line by line, explain-placement, retry, fallbacks, remove.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  serverSetup,
  spawnLlmgw,
  startAgent,
  startServer,
  tempDir,
  waitFor,
  type SpawnedProcess,
} from "@llmgw/testing";
import { seedDevModels } from "../src/dev-models";

const PASSWORD = ADMIN_PASSWORD;
let apiUrl: string;
let configDir: string;
let workDir: string;
const started: SpawnedProcess[] = [];

beforeAll(async () => {
  configDir = (await tempDir("ctl-models-config")).path;
  workDir = (await tempDir("ctl-models-files")).path;
  const server = await startServer(await serverSetup());
  apiUrl = server.apiUrl;
  started.push(server.process, await startAgent(server, "models-cpu", "cpu"));
  const login = await ctl(["login", "--server", apiUrl, "--password-stdin"], `${PASSWORD}\n`);
  expect(login.code, login.output).toBe(0);
});
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
});

async function ctl(args: string[], stdin?: string) {
  const proc = spawnLlmgw(["ctl", ...args], {
    env: { LLMGW_CONFIG_DIR: configDir },
    stdin: stdin === undefined ? "ignore" : "pipe",
  });
  if (stdin !== undefined) proc.child.stdin?.end(stdin);
  const exit = await proc.exited;
  return { code: exit.code, output: proc.output() };
}

const DEFINITIONS = `
- name: file-chat
  source: file:///var/lib/llmgw/sim/file-chat
  profiles:
    - name: sim
      engine: sim
      memory_gb: 1
  replicas: { min: 1, max: 1 }
- name: pickled
  source: https://example.com/weights.pt
  profiles:
    - name: gpu
      engine: vllm
      args: ["--download-dir", "/tmp/x"]
`;

describe("llmgw ctl on the catalog", () => {
  it("adds what is valid in a file, prints each refusal line of what is not, and exits non-zero", async () => {
    const file = join(workDir, "models.yaml");
    writeFileSync(file, DEFINITIONS);
    const result = await ctl(["model", "add", file]);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(
      /model "file-chat": model "file-chat" is in the catalog at revision 1/,
    );
    expect(result.output).toMatch(
      /model "pickled": model "pickled" was refused:\n {2}- source: .*pickle/,
    );
    expect(result.output).toMatch(/^ {2}- profiles\[0\]\.gpu: engine vllm needs a GPU/m);
    expect(result.output).toMatch(/^ {2}- profiles\[0\]\.args\[0\]: .*download-dir/m);
    expect(result.output).toMatch(/1 of 2 definitions were refused/);

    const models = await ctl(["models"]);
    expect(models.code).toBe(0);
    expect(models.output).toMatch(/^NAME\s+STATE\s+READY\/DESIRED\s+ENGINE\s+OWNER\s+LAST ERROR$/m);
    // Its state depends on the node (a simulated path may not exist there); the row itself is what is checked.
    expect(models.output).toMatch(
      /^file-chat\s+(ready|progressing|parked|unplaceable|stopped)\s+\d+\/\d+\s+sim\s+-\s/m,
    );
    expect(models.output).not.toMatch(/pickled/);
  });

  it("adds the external model of examples/, shown as external, and refuses a bad external definition", async () => {
    const example = new URL("../../../examples/external-model.yaml", import.meta.url).pathname;
    const added = await ctl(["model", "add", example]);
    expect(added.code, added.output).toBe(0);
    expect(added.output).toMatch(/model "gpt-4o-mini" is in the catalog at revision 1/);
    const models = await ctl(["models"]);
    expect(models.output).toMatch(/^gpt-4o-mini\s+ready\s+0\/0\s+external\s+team:platform\s/m);
    const file = join(workDir, "bad-external.yaml");
    writeFileSync(
      file,
      "name: ext-bad\nexternal:\n  url: ftp://example.com\n  model: m\n  api_key_file: keys/k\n",
    );
    const refused = await ctl(["model", "add", file]);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      /^ {2}- external\.url: external\.url must be an http:\/\/ or https:\/\/ URL$/m,
    );
    expect(refused.output).toMatch(
      /^ {2}- external\.api_key_file: give the key file as an absolute path on the control plane$/m,
    );
    await ctl(["model", "remove", "gpt-4o-mini"]);
  });

  it("keeps an external model's key sealed: set from a file, never printed, cleared", async () => {
    const example = new URL("../../../examples/external-model.yaml", import.meta.url).pathname;
    expect((await ctl(["model", "add", example])).code).toBe(0);
    const before = await ctl(["models"]);
    expect(before.output).toMatch(
      /^gpt-4o-mini\s+ready\s+0\/0\s+external\s+team:platform\s+no provider key: llmgw ctl model key set gpt-4o-mini --key-file F$/m,
    );
    const secret = `sk-ctl-sealed-${Date.now()}`;
    const keyFile = join(workDir, "openai.key");
    writeFileSync(keyFile, `${secret}\n`, { mode: 0o600 });
    const set = await ctl(["model", "key", "set", "gpt-4o-mini", "--key-file", keyFile]);
    expect(set.code, set.output).toBe(0);
    expect(set.output).toMatch(
      /model "gpt-4o-mini": its provider key is set, kept sealed in the store/,
    );
    const shown = await ctl(["model", "get", "gpt-4o-mini"]);
    expect(shown.output).toMatch(/^provider key\s+sealed in the store$/m);
    const json = await ctl(["model", "get", "gpt-4o-mini", "--json"]);
    expect(JSON.parse(json.output)).toMatchObject({ externalKey: "sealed" });
    for (const output of [
      set.output,
      shown.output,
      json.output,
      (await ctl(["models", "--json"])).output,
    ])
      expect(output).not.toContain(secret);

    const noFlag = await ctl(["model", "key", "set", "gpt-4o-mini"]);
    expect(noFlag.code).not.toBe(0);
    expect(noFlag.output).toMatch(/--key-file/);
    const cleared = await ctl(["model", "key", "clear", "gpt-4o-mini"]);
    expect(cleared.code, cleared.output).toBe(0);
    expect(cleared.output).toMatch(/its sealed key is cleared; it has no key until one is set/);

    // Key files are off on this server (no LLMGW_KEY_FILE_DIR): the refusal names the setting.
    const file = join(workDir, "steal.yaml");
    writeFileSync(
      file,
      "name: ext-steal\nexternal:\n  url: https://api.example.com/v1\n  model: m\n  api_key_file: /etc/shadow\n",
    );
    const refused = await ctl(["model", "add", file]);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      /external\.api_key_file: key files are off on this server.*LLMGW_KEY_FILE_DIR/,
    );
    await ctl(["model", "remove", "gpt-4o-mini"]);
  });

  it("adds a preset, explains its placement, retries it and sets fallbacks", async () => {
    const add = await ctl(["model", "add", "sim-chat"]);
    expect(add.code, add.output).toBe(0);
    expect(add.output).toMatch(
      /preset "sim-chat": model "sim-chat" is in the catalog at revision 1/,
    );
    const unknownPreset = await ctl(["model", "add", "no-such-preset"]);
    expect(unknownPreset.code).toBe(1);
    expect(unknownPreset.output).toMatch(
      /no preset named "no-such-preset"; presets are .*sim-chat/,
    );

    const explained = await waitFor(
      async () => {
        const result = await ctl(["explain-placement", "sim-chat"]);
        return result.output.includes("models-cpu") ? result : null;
      },
      { what: "models-cpu in explain-placement", timeoutMs: 30_000 },
    );
    expect(explained.code).toBe(0);
    expect(explained.output).toMatch(/^model sim-chat:\n/);

    const retry = await ctl(["retry", "sim-chat"]);
    expect(retry.code, retry.output).toBe(0);
    expect(retry.output).toMatch(/model "sim-chat": failures cleared/);

    const fallbacks = await ctl(["model", "fallbacks", "sim-chat", "file-chat"]);
    expect(fallbacks.output).toMatch(/model "sim-chat" falls back to file-chat/);
    const self = await ctl(["model", "fallbacks", "sim-chat", "sim-chat,ghost"]);
    expect(self.code).toBe(1);
    expect(self.output).toMatch(/^ {2}- "sim-chat" cannot be its own fallback$/m);
    expect(self.output).toMatch(/^ {2}- fallback "ghost" is not in the catalog/m);

    const json = JSON.parse((await ctl(["model", "get", "sim-chat", "--json"])).output) as {
      fallbacks: string[];
      revision: number;
    };
    expect(json).toMatchObject({ fallbacks: ["file-chat"], revision: 1 });
  });

  it("removes a model, and says so when the model is not there", async () => {
    const removed = await ctl(["model", "remove", "file-chat"]);
    expect(removed.code, removed.output).toBe(0);
    const list = JSON.parse((await ctl(["models", "--json"])).output) as Array<{
      name: string;
      fallbacks: string[];
    }>;
    expect(list.map((model) => model.name)).toEqual(["sim-chat"]);
    // Removing a model takes it out of every other model's fallbacks.
    expect(list[0]?.fallbacks).toEqual([]);

    const again = await ctl(["model", "remove", "file-chat"]);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/llmgw ctl model: model "file-chat" is not in the catalog/);
    const get = await ctl(["model", "get", "file-chat"]);
    expect(get.code).toBe(1);
    expect(get.output).toMatch(/not in the catalog/);
    const usage = await ctl(["retry"]);
    expect(usage.code).toBe(2);
    expect(usage.output).toMatch(/MODEL is missing; usage: retry MODEL/);
  });

  it("shows status, replicas and presets, as tables and as JSON", async () => {
    const status = await ctl(["status"]);
    expect(status.code, status.output).toBe(0);
    expect(status.output).toMatch(/^models\s+\d+\/1 ready$/m);
    expect(JSON.parse((await ctl(["status", "--json"])).output)).toMatchObject({ modelsTotal: 1 });
    const replicas = await ctl(["replicas", "--model", "sim-chat"]);
    expect(replicas.code, replicas.output).toBe(0);
    const presets = await ctl(["presets"]);
    expect(presets.output).toMatch(/^sim-gpu-chat\s+no\s/m);
  });

  it("benches a model straight to a replica with its key, and through /v1 with an API key", async () => {
    await waitFor(
      async () => {
        const replicas = JSON.parse(
          (await ctl(["replicas", "--model", "sim-chat", "--json"])).output,
        ) as Array<{ phase: string }>;
        return replicas.some((r) => r.phase === "ready") ? replicas : null;
      },
      { what: "a ready sim-chat replica", timeoutMs: 60_000 },
    );
    type Step = {
      concurrency: number;
      requests: number;
      failed: number;
      meanOutputTokens: number;
      ttftMs: { p50: number } | null;
    };
    const direct = await ctl([
      ...["bench", "sim-chat", "--concurrency", "1,2", "--requests", "3"],
      ...["--max-tokens", "12", "--prompt-tokens", "40", "--json"],
    ]);
    expect(direct.code, direct.output).toBe(0);
    const report = JSON.parse(direct.output) as { target: string; steps: Step[] };
    expect(report.target).toMatch(
      /^replica sim-chat-\S+ of sim-chat \(sim on models-cpu\) at http:\/\/127\.0\.0\.1:\d+\/v1$/,
    );
    expect(report.steps.map((s) => [s.concurrency, s.requests, s.failed])).toEqual([
      [1, 3, 0],
      [2, 3, 0],
    ]);
    for (const step of report.steps) {
      expect(step.meanOutputTokens).toBe(12);
      expect(step.ttftMs?.p50).toBeGreaterThan(0);
    }

    const table = await ctl([
      "bench",
      "sim-chat",
      "--concurrency",
      "1",
      "--requests",
      "2",
      "--max-tokens",
      "4",
    ]);
    expect(table.code, table.output).toBe(0);
    expect(table.output).toMatch(/^CONC\s+OK\/SENT\s+REQ\/S\s+OUT TOK\/S\s+TTFT ms/m);
    expect(table.output).toMatch(/^1\s+2\/2\s/m);

    const noKey = await ctl(["bench", "sim-chat", "--gateway"]);
    expect(noKey.code).toBe(2);
    expect(noKey.output).toMatch(/--gateway needs an llmgw API key/);
    const created = await ctl([
      "keys",
      "create",
      "--owner",
      "team:ml",
      "--models",
      "sim*",
      "--json",
    ]);
    const key = (JSON.parse(created.output.slice(created.output.indexOf("{"))) as { key: string })
      .key;
    const keyFile = join(workDir, "bench.key");
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    const viaGateway = await ctl([
      ...["bench", "sim-chat", "--gateway", "--api-key-file", keyFile],
      ...["--concurrency", "2", "--requests", "4", "--max-tokens", "6", "--json"],
    ]);
    expect(viaGateway.code, viaGateway.output).toBe(0);
    const gatewayReport = JSON.parse(viaGateway.output) as { target: string; steps: Step[] };
    expect(gatewayReport.target).toBe(`sim-chat through ${apiUrl}/v1`);
    expect(gatewayReport.steps[0]).toMatchObject({ concurrency: 2, requests: 4, failed: 0 });
  });

  it("llmgw dev's seeding adds the simulated presets only to an empty catalog", async () => {
    expect(await seedDevModels(apiUrl, "admin", PASSWORD, false)).toEqual({
      added: [],
      models: ["sim-chat"],
      apiKey: null,
    });
    expect((await ctl(["model", "remove", "sim-chat"])).code).toBe(0);
    expect(await seedDevModels(apiUrl, "admin", PASSWORD, false)).toEqual({
      added: ["sim-chat", "sim-gpu-chat"],
      models: ["sim-chat", "sim-gpu-chat"],
      apiKey: null,
    });
  });

  it("llmgw dev's seeding makes an API key for the admin that opens /v1", async () => {
    const { apiKey } = await seedDevModels(apiUrl, "admin", PASSWORD, true);
    expect(apiKey).toMatch(/^llmgw_/);
    const res = await fetch(`${apiUrl}/v1/models`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id)).toEqual([
      "sim-chat",
      "sim-gpu-chat",
    ]);
  });
});
