// Hub ids fetched from mirrors in the layout huggingface_hub reads through HF_ENDPOINT, against
// real HTTP servers on loopback: the file list at api/models/ORG/NAME/revision/main, the files at
// ORG/NAME/resolve/main/FILE, each checked against the list's sha256; the next mirror when one
// sends a file that does not match or lacks one; pickles left out; unsafe names refused.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
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

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");
const REPO = "org/tiny";
const weights = Buffer.alloc(128 * 1024, 7);
const config = '{"architectures":["LlamaForCausalLM"]}';

/** A list as the hub's API gives it: LFS files with lfs.sha256 and size, small files without. */
function list(files: Record<string, Buffer | string>, lfs: Record<string, Buffer | string> = {}) {
  const siblings = [
    { rfilename: ".gitattributes" },
    ...Object.keys(files).map((rfilename) =>
      rfilename in lfs
        ? {
            rfilename,
            lfs: {
              sha256: sha256(lfs[rfilename] ?? ""),
              size: Buffer.from(lfs[rfilename] ?? "").length,
            },
          }
        : { rfilename },
    ),
  ];
  return JSON.stringify({ id: REPO, sha: "0".repeat(40), siblings });
}

/** A mirror serving the repository's list and files in the hub layout; `gets` records paths. */
async function serveHub(
  files: Record<string, Buffer | string>,
  listed: string | undefined,
): Promise<{ baseUrl: string; gets: string[] }> {
  const gets: string[] = [];
  const server = createServer((request, response) => {
    const relative = decodeURIComponent((request.url ?? "/").slice(1));
    gets.push(relative);
    const prefix = `${REPO}/resolve/main/`;
    const body =
      relative === `api/models/${REPO}/revision/main`
        ? listed
        : relative.startsWith(prefix)
          ? files[relative.slice(prefix.length)]
          : undefined;
    if (body === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { "content-length": String(Buffer.from(body).length) });
    response.end(Buffer.from(body));
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, gets };
}

const dataDir = () => mkdtempSync(path.join(tmpdir(), "llmgw-hub-mirror-"));

describe("hub ids on the mirrors", () => {
  it("fetches the listed files, moving past a mirror whose file does not match its list", async () => {
    const files = { "config.json": config, "model.safetensors": weights };
    const tampered = Buffer.from(weights);
    tampered[10] = 1;
    const bad = await serveHub(
      { ...files, "model.safetensors": tampered },
      list(files, { "model.safetensors": weights }),
    );
    const good = await serveHub(files, list(files, { "model.safetensors": weights }));
    const dir = dataDir();
    const resolved = await new WeightCache({ dataDir: dir }).resolve(`hf:${REPO}`, {
      allowPickle: false,
      mirrors: [
        { name: "bad", baseUrl: bad.baseUrl },
        { name: "good", baseUrl: good.baseUrl },
      ],
    });
    expect(resolved.note).toContain(`from mirror good (2 files of hf:${REPO})`);
    const entry = path.join(dir, "cache", cacheName(`hf:${REPO}`));
    expect(resolved.modelPath).toBe(path.join(entry, "repo"));
    expect(readdirSync(entry).sort()).toEqual(["manifest.json", "repo"]);
    expect(readdirSync(path.join(entry, "repo")).sort()).toEqual([
      "config.json",
      "model.safetensors",
    ]);
    expect(sha256(readFileSync(path.join(entry, "repo", "model.safetensors")))).toBe(
      sha256(weights),
    );
    expect(bad.gets).toContain(`${REPO}/resolve/main/model.safetensors`);
    expect(bad.gets).not.toContain(`${REPO}/resolve/main/.gitattributes`);

    // Fetched once: the next replica uses the cache entry.
    const again = await new WeightCache({ dataDir: dir }).resolve(`hf:${REPO}`, {
      allowPickle: false,
      mirrors: [{ name: "good", baseUrl: good.baseUrl }],
    });
    expect(again.note).toContain("from cache");
  });

  it("names the file and the list when no mirror's copy matches, keeping nothing", async () => {
    const files = { "model.safetensors": weights };
    const listed = list(files, { "model.safetensors": "other weights" });
    const a = await serveHub(files, listed);
    const dir = dataDir();
    const fetching = new WeightCache({ dataDir: dir }).resolve(REPO, {
      allowPickle: false,
      mirrors: [{ name: "a", baseUrl: a.baseUrl }],
    });
    await expect(fetching).rejects.toThrow(
      `no mirror served hf:${REPO} whole (a: model.safetensors of hf:${REPO} on mirror a: sha256 is ${sha256(weights)}, but the mirror's file list (api/models/${REPO}/revision/main) says`,
    );
    expect(readdirSync(path.join(dir, "cache", cacheName(REPO)))).toEqual([]);
  });

  it("loads a repository's one GGUF file and leaves pickle files out", async () => {
    const files = { "model-q4.gguf": weights, "pytorch_model.bin": "pickle", "README.md": "hi" };
    const hub = await serveHub(files, list(files));
    const dir = dataDir();
    const resolved = await new WeightCache({ dataDir: dir }).resolve(`hf:${REPO}`, {
      allowPickle: false,
      mirrors: [{ name: "m", baseUrl: hub.baseUrl }],
    });
    expect(resolved.modelPath.endsWith(path.join("repo", "model-q4.gguf"))).toBe(true);
    expect(hub.gets).not.toContain(`${REPO}/resolve/main/pytorch_model.bin`);
    expect(readdirSync(path.dirname(resolved.modelPath)).sort()).toEqual([
      "README.md",
      "model-q4.gguf",
    ]);
  });

  it("refuses a list naming a file outside the repository", async () => {
    const listed = JSON.stringify({ siblings: [{ rfilename: "../../../../etc/cron.d/x" }] });
    const hub = await serveHub({}, listed);
    const fetching = new WeightCache({ dataDir: dataDir() }).resolve(`hf:${REPO}`, {
      allowPickle: false,
      mirrors: [{ name: "m", baseUrl: hub.baseUrl }],
    });
    await expect(fetching).rejects.toThrow("which is not a safe file path");
  });

  it("leaves a repository no mirror holds to the hub route, or refuses it without one", async () => {
    const hub = await serveHub({}, undefined);
    const mirrors = [{ name: "m", baseUrl: hub.baseUrl }];
    const simulated = await new WeightCache({ dataDir: dataDir() }).resolve(`hf:${REPO}`, {
      allowPickle: false,
      isSimulator: true,
      mirrors,
    });
    expect(simulated.note).toContain("the simulator loads no weights");
    expect(simulated.note).toContain(`it does not hold hf:${REPO} (HTTP 404`);
    const viaHub = await new WeightCache({ dataDir: dataDir(), hubUrl: "http://hub.lan" }).resolve(
      `hf:${REPO}`,
      { allowPickle: false, mirrors },
    );
    expect(viaHub.note).toContain("loaded by the engine from http://hub.lan");
    await expect(
      new WeightCache({ dataDir: dataDir() }).resolve(`hf:${REPO}`, {
        allowPickle: false,
        mirrors,
      }),
    ).rejects.toThrow(`no mirror served hf:${REPO} whole (m: it does not hold hf:${REPO}`);
  });
});
