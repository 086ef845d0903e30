import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseGgufDescription } from "@llmgw/domain";
import { TINY_LLAMA, tinyLlamaGguf } from "@llmgw/testing";
import { describe, expect, it } from "vitest";
import { MAX_CONFIG_BYTES, SourceConfigs } from "./source-config";

async function modelDir(config: string | undefined): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "llmgw-source-config-"));
  await writeFile(path.join(dir, "model.safetensors"), "weights");
  if (config !== undefined) await writeFile(path.join(dir, "config.json"), config);
  return dir;
}

describe("source configs", () => {
  it("reads config.json in a model directory or beside a weights file, once per source", async () => {
    const lines: string[] = [];
    const configs = new SourceConfigs((line) => lines.push(line));
    const dir = await modelDir('{"model_type":"llama"}');
    await configs.note("file:///a", dir);
    await configs.note("https://mirror/b.safetensors", path.join(dir, "model.safetensors"));
    await configs.note("file:///a", dir);
    expect(configs.takeFresh()).toEqual([
      { source: "file:///a", configJson: '{"model_type":"llama"}', descriptionJson: "" },
      {
        source: "https://mirror/b.safetensors",
        configJson: '{"model_type":"llama"}',
        descriptionJson: "",
      },
    ]);
    expect(configs.takeFresh()).toEqual([]);
    // Register carries them all again, and a heartbeat after it nothing new.
    expect(configs.all().map((c) => c.source)).toEqual([
      "file:///a",
      "https://mirror/b.safetensors",
    ]);
    expect(lines).toEqual([]);
  });

  it("sends nothing for weights without a config, a hub id, or a config over the limit", async () => {
    const lines: string[] = [];
    const configs = new SourceConfigs((line) => lines.push(line));
    await configs.note("file:///none", await modelDir(undefined));
    await configs.note("Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct");
    await configs.note("file:///big", await modelDir(" ".repeat(MAX_CONFIG_BYTES + 1)));
    expect(configs.all()).toEqual([]);
    expect(lines).toEqual([expect.stringMatching(/config\.json: 65537 bytes, over 65536/)]);
  });

  it("reads no config.json that is a directory", async () => {
    const dir = await modelDir(undefined);
    await mkdir(path.join(dir, "config.json"));
    const configs = new SourceConfigs();
    await configs.note("file:///odd", dir);
    expect(configs.all()).toEqual([]);
  });

  it("describes a GGUF without a config.json from its header, file or directory alike", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "llmgw-source-gguf-"));
    const file = path.join(dir, "tiny.gguf");
    await writeFile(file, tinyLlamaGguf());
    const lines: string[] = [];
    const configs = new SourceConfigs((line) => lines.push(line));
    await configs.note("file:///tiny.gguf", file);
    await configs.note("file:///tiny-dir", dir);
    const [fromFile, fromDir] = configs.takeFresh();
    expect(fromFile).toMatchObject({ source: "file:///tiny.gguf", configJson: "" });
    expect(fromDir?.descriptionJson).toBe(fromFile?.descriptionJson);
    // The control plane's own check takes it: the agent sends what the server accepts.
    const parsed = parseGgufDescription(fromFile?.descriptionJson ?? "");
    expect(parsed.ok && parsed.description).toMatchObject({
      source: "gguf",
      architecture: "llama",
      layers: TINY_LLAMA.blockCount,
    });
    expect(lines).toEqual([]);
  });

  it("logs a .gguf that is not one, and sends nothing for it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "llmgw-source-gguf-"));
    await writeFile(path.join(dir, "broken.gguf"), "not a gguf at all");
    const lines: string[] = [];
    const configs = new SourceConfigs((line) => lines.push(line));
    await configs.note("file:///broken", dir);
    expect(configs.all()).toEqual([]);
    expect(lines).toEqual([expect.stringMatching(/broken\.gguf: GGUF header not read for sizing/)]);
  });
});
