// Fetching weights: an http(s) download into the cache with progress and a manifest, cache hits,
// local sources referenced in place, hub ids without a route, and pickles refused before any byte.
import { createHash } from "node:crypto";
import { once } from "node:events";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WeightCache, type FetchProgress } from "./fetch";
import { cacheName } from "./layout";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** Serves `body` in small slices with pauses, so progress is reported more than once. */
async function serveWeights(body: Buffer): Promise<{ base: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? "");
    if (request.url?.startsWith("/redirect")) {
      response.writeHead(302, { location: "/model.bin" }).end();
      return;
    }
    if (request.url?.startsWith("/missing")) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-length": String(body.length) });
    let offset = 0;
    const sendSlice = () => {
      if (offset >= body.length) return void response.end();
      response.write(body.subarray(offset, offset + 16 * 1024));
      offset += 16 * 1024;
      setTimeout(sendSlice, 5);
    };
    sendSlice();
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

const dataDir = () => mkdtempSync(path.join(tmpdir(), "llmgw-fetch-"));

describe("WeightCache", () => {
  it("downloads an http source into the cache with progress and a manifest, then hits the cache", async () => {
    const body = Buffer.alloc(200 * 1024, 7);
    const { base, hits } = await serveWeights(body);
    const cache = new WeightCache({ dataDir: dataDir(), nowMs: () => 1234 });
    const source = `${base}/qwen-0.5b-q4.gguf?token=signed`;
    const progress: FetchProgress[] = [];
    const resolved = await cache.resolve(source, {
      allowPickle: false,
      onProgress: (p) => progress.push(p),
    });

    const name = cacheName(source);
    expect(resolved.modelPath).toBe(path.join(cache.cacheDir, name, "qwen-0.5b-q4.gguf"));
    expect(readFileSync(resolved.modelPath).equals(body)).toBe(true);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.at(-1)).toEqual({ receivedBytes: body.length, totalBytes: body.length });
    expect(progress.map((p) => p.receivedBytes)).toEqual(
      [...progress.map((p) => p.receivedBytes)].sort((a, b) => a - b),
    );
    const manifest = JSON.parse(
      readFileSync(path.join(cache.cacheDir, name, "manifest.json"), "utf8"),
    );
    expect(manifest).toEqual({
      source,
      file: "qwen-0.5b-q4.gguf",
      sizeBytes: body.length,
      sha256: createHash("sha256").update(body).digest("hex"),
      fetchedByAgent: true,
      fetchedAtMs: 1234,
    });
    expect(statSync(resolved.modelPath).mode & 0o777).toBe(0o600);
    // No partial download is left behind, and the signed token is not in the note.
    expect(readdirSync(path.join(cache.cacheDir, name)).sort()).toEqual([
      "manifest.json",
      "qwen-0.5b-q4.gguf",
    ]);
    expect(resolved.note).not.toContain("signed");

    const again = await cache.resolve(source, { allowPickle: false });
    expect(again.note).toBe(`weights from cache ${name}`);
    expect(hits).toHaveLength(1);
  });

  it("fails on an HTTP error and leaves no partial file", async () => {
    const { base } = await serveWeights(Buffer.alloc(10));
    const cache = new WeightCache({ dataDir: dataDir() });
    await expect(cache.resolve(`${base}/missing.gguf`, { allowPickle: false })).rejects.toThrow(
      /answered HTTP 404/,
    );
    const entry = path.join(cache.cacheDir, cacheName(`${base}/missing.gguf`));
    expect(existsSync(entry) ? readdirSync(entry) : []).toEqual([]);
  });

  it("refuses a pickle source before fetching it, and one a redirect lands on, unless allowed", async () => {
    const { base, hits } = await serveWeights(Buffer.alloc(10));
    const cache = new WeightCache({ dataDir: dataDir() });
    await expect(cache.resolve(`${base}/model.bin`, { allowPickle: false })).rejects.toThrow(
      /ends in \.bin, a Python pickle .*mirror the model's \.safetensors/,
    );
    expect(hits).toEqual([]);
    await expect(cache.resolve("/models/evil.pt", { allowPickle: false })).rejects.toThrow(
      /ends in \.pt/,
    );
    await expect(cache.resolve(`${base}/redirect.gguf`, { allowPickle: false })).rejects.toThrow(
      /ends in \.bin/,
    );
    await expect(cache.resolve(`${base}/model.bin`, { allowPickle: true })).resolves.toMatchObject({
      cacheName: cacheName(`${base}/model.bin`),
    });
  });

  it("references absolute paths and file:// URLs in place, without copying", async () => {
    const dir = dataDir();
    const weights = path.join(dir, "model.gguf");
    writeFileSync(weights, "gguf");
    const cache = new WeightCache({ dataDir: dir });
    await expect(cache.resolve(weights, { allowPickle: false })).resolves.toMatchObject({
      modelPath: weights,
      cacheName: undefined,
    });
    await expect(cache.resolve(`file://${weights}`, { allowPickle: false })).resolves.toMatchObject(
      { modelPath: weights },
    );
    expect(existsSync(cache.cacheDir)).toBe(false);
    await expect(
      cache.resolve(path.join(dir, "absent.gguf"), { allowPickle: false }),
    ).rejects.toThrow(/does not exist on this node/);
    // The simulator reads no weights, so a path only real nodes have does not fail it.
    await expect(
      cache.resolve(path.join(dir, "absent.gguf"), { allowPickle: false, isSimulator: true }),
    ).resolves.toMatchObject({
      modelPath: path.join(dir, "absent.gguf"),
      note: expect.stringMatching(/simulator loads no weights/),
    });
  });

  it("fails a hub id without a route to the hub and says how to mirror; the simulator needs none", async () => {
    const cache = new WeightCache({ dataDir: dataDir() });
    await expect(cache.resolve("Qwen/Qwen2.5-0.5B", { allowPickle: false })).rejects.toThrow(
      /Qwen\/Qwen2\.5-0\.5B is a Hugging Face id and this node has no route to the hub; mirror the files on an http\(s\):\/\/ server or a shared path/,
    );
    await expect(
      cache.resolve("Qwen/Qwen2.5-0.5B", { allowPickle: false, isSimulator: true }),
    ).resolves.toMatchObject({ modelPath: "Qwen/Qwen2.5-0.5B" });
    const withHub = new WeightCache({ dataDir: dataDir(), hubUrl: "https://hf.mirror.lan" });
    await expect(
      withHub.resolve("hf:Qwen/Qwen2.5-0.5B", { allowPickle: false }),
    ).resolves.toMatchObject({ modelPath: "Qwen/Qwen2.5-0.5B" });
  });
});
