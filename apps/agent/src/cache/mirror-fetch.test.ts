// Mirror sources against real HTTP servers on loopback: the next mirror when one does not answer
// or breaks off mid-download, checksums named by the source or published by the mirror, and a
// cached copy hashed again before use.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WeightCache } from "./fetch";
import { cacheName } from "./layout";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const FILE = "org/tiny/model.gguf";

interface MirrorFiles {
  [path: string]: Buffer | string;
}

/** A mirror serving `files`; `breakAfterBytes` makes it drop the connection mid-body. */
async function serveMirror(files: MirrorFiles, breakAfterBytes?: number): Promise<string> {
  const server = createServer((request, response) => {
    const body = files[decodeURIComponent((request.url ?? "/").slice(1))];
    if (body === undefined) return void response.writeHead(404).end();
    const bytes = Buffer.from(body);
    response.writeHead(200, { "content-length": String(bytes.length) });
    if (breakAfterBytes === undefined) return void response.end(bytes);
    response.write(bytes.subarray(0, breakAfterBytes), () => response.destroy());
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** A base URL nothing listens on: a server started and closed again. */
async function deadMirror(): Promise<string> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  await new Promise((resolve) => server.close(resolve));
  return base;
}

const weights = Buffer.alloc(256 * 1024, 3);

describe("mirror sources", () => {
  it("moves past a mirror that does not answer and one that breaks off mid-download", async () => {
    const dead = await deadMirror();
    const broken = await serveMirror({ [FILE]: weights }, 64 * 1024);
    const good = await serveMirror({ [FILE]: weights });
    const dataDir = mkdtempSync(path.join(tmpdir(), "llmgw-mirror-"));
    const cache = new WeightCache({ dataDir });
    const resolved = await cache.resolve(`mirror:${FILE}`, {
      allowPickle: false,
      mirrors: [
        { name: "primary", baseUrl: dead },
        { name: "broken", baseUrl: broken },
        { name: "peer", baseUrl: good },
      ],
    });
    expect(resolved.note).toContain("from mirror peer");
    expect(path.basename(resolved.modelPath)).toBe("model.gguf");
    const entry = path.join(dataDir, "cache", cacheName(`mirror:${FILE}`));
    expect(readdirSync(entry).sort()).toEqual(["manifest.json", "model.gguf"]);
  });

  it("refuses a file whose sha256 is not the source's, naming it, and keeps nothing", async () => {
    const wrong = "0".repeat(64);
    const a = await serveMirror({ [FILE]: weights });
    const b = await serveMirror({ [FILE]: weights });
    const dataDir = mkdtempSync(path.join(tmpdir(), "llmgw-mirror-"));
    const source = `mirror:${FILE}#sha256=${wrong}`;
    const fetching = new WeightCache({ dataDir }).resolve(source, {
      allowPickle: false,
      mirrors: [
        { name: "a", baseUrl: a },
        { name: "b", baseUrl: b },
      ],
    });
    await expect(fetching).rejects.toThrow(
      `${FILE} on mirror a: sha256 is ${sha256(weights)}, but the source says ${wrong}`,
    );
    await expect(fetching).rejects.toThrow(`b: ${FILE} on mirror b: sha256 is`);
    expect(readdirSync(path.join(dataDir, "cache", cacheName(source)))).toEqual([]);
  });

  it("checks the sha256 a mirror publishes beside the file, moving on when it does not match", async () => {
    const corrupt = Buffer.from(weights);
    corrupt[1000] = 9;
    const published = `${sha256(weights)}  model.gguf\n`;
    const bad = await serveMirror({ [FILE]: corrupt, [`${FILE}.sha256`]: published });
    const good = await serveMirror({ [FILE]: weights, [`${FILE}.sha256`]: published });
    const dataDir = mkdtempSync(path.join(tmpdir(), "llmgw-mirror-"));
    const lines: string[] = [];
    const cache = new WeightCache({ dataDir, log: (line) => lines.push(line) });
    const options = {
      allowPickle: false,
      mirrors: [
        { name: "bad", baseUrl: bad },
        { name: "good", baseUrl: good },
      ],
    };
    const resolved = await cache.resolve(`mirror:${FILE}`, options);
    expect(resolved.note).toContain("from mirror good");

    // A copy changed on disk since is not trusted for having been fetched once.
    writeFileSync(resolved.modelPath, corrupt);
    const again = await cache.resolve(`mirror:${FILE}`, options);
    expect(again.note).toContain("fetched");
    expect(lines.join("\n")).toContain("fetching it again");
    expect((await cache.resolve(`mirror:${FILE}`, options)).note).toContain("from cache");
  });

  it("says how to name mirrors when the control plane sent none, and refuses a pickle first", async () => {
    const cache = new WeightCache({ dataDir: mkdtempSync(path.join(tmpdir(), "llmgw-mirror-")) });
    await expect(cache.resolve(`mirror:${FILE}`, { allowPickle: false })).rejects.toThrow(
      "set LLMGW_MIRRORS on the server",
    );
    await expect(
      cache.resolve("mirror:org/m/pytorch_model.bin", { allowPickle: false, mirrors: [] }),
    ).rejects.toThrow("a Python pickle");
  });
});
