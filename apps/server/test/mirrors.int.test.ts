// Mirrors end to end: two real HTTP file servers started here (node:http serving a temp dir, the
// way a company's mirror serves its files), a real server naming them in LLMGW_MIRRORS, a real
// agent with simulated cards and the simulated engine. The primary is killed while the node is
// fetching from it: the fetch moves to the peer, and the server marks the primary down. A file
// whose published sha256 does not match is refused, naming the file; a file a catalog model
// loads cannot be removed from a mirror. A hub id (hf:ORG/NAME) is fetched from the mirrors in
// the layout huggingface_hub reads through HF_ENDPOINT, past a mirror lacking a listed file.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, waitFor } from "@llmgw/testing";
import { simGpuModel, startFleet, type Fleet } from "./harness";

const MODEL_FILE = "org/tiny/model.safetensors";
const BAD_FILE = "org/bad/model.safetensors";
const SPARE_FILE = "org/spare/model.safetensors";
const HUB_REPO = "org/hubtiny";
const HUB_FILES = {
  "config.json": '{"architectures":["LlamaForCausalLM"]}',
  "model.safetensors": "simulated hub weights",
};
/** Large enough that the throttled primary is still sending when it is killed. */
const WEIGHTS = Buffer.alloc(8 * 1024 * 1024, 5);
const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

interface FileServer {
  server: Server;
  baseUrl: string;
  root: string;
  /** Paths asked for with GET, in order. */
  gets: string[];
}

/** Serves `root` read-write: GET/HEAD a file (slowly when `slow`), DELETE removes it. */
async function startFileServer(root: string, slow: boolean): Promise<FileServer> {
  const gets: string[] = [];
  const server = createServer((request, response) => {
    const relative = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    const file = path.join(root, path.normalize(relative));
    if (!file.startsWith(root)) return void response.writeHead(400).end();
    if (request.method === "DELETE")
      return void rm(file).then(
        () => response.writeHead(204).end(),
        () => response.writeHead(404).end(),
      );
    stat(file).then(
      (info) => {
        if (!info.isFile()) return void response.writeHead(relative === "/" ? 200 : 404).end();
        response.writeHead(200, { "content-length": String(info.size) });
        if (request.method === "HEAD") return void response.end();
        gets.push(relative.slice(1));
        // The throttled primary sends 64 KiB and then waits 20 ms: about 2.6 s for the weights.
        // (Pausing the file stream from a "data" listener does not throttle a pipe: the
        // response's "drain" resumes it at once, and the weights left in about 0.1 s.)
        const stream = createReadStream(file, slow ? { highWaterMark: 64 * 1024 } : {});
        const paced = async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            yield chunk;
            if (slow) await sleep(20);
          }
        };
        // A killed server cuts the response mid-way: that is the point, not a failure here.
        pipeline(stream, paced, response).catch(() => undefined);
      },
      () => response.writeHead(request.url === "/" ? 200 : 404).end(),
    );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { server, baseUrl: `http://127.0.0.1:${port}/`, root, gets };
}

async function putFile(root: string, relative: string, content: Buffer | string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

/**
 * A hub repository in the HF_ENDPOINT layout: the list (as the hub's API gives it, LFS files with
 * lfs.sha256) at api/models/ORG/NAME/revision/main, the files at ORG/NAME/resolve/main/FILE.
 */
async function putHubRepo(root: string, files: Record<string, string>): Promise<void> {
  const weights = HUB_FILES["model.safetensors"];
  const siblings = [
    { rfilename: ".gitattributes" },
    { rfilename: "config.json" },
    { rfilename: "model.safetensors", lfs: { sha256: sha256(weights), size: weights.length } },
  ];
  await putFile(root, `api/models/${HUB_REPO}/revision/main`, JSON.stringify({ siblings }));
  for (const [name, content] of Object.entries(files))
    await putFile(root, `${HUB_REPO}/resolve/main/${name}`, content);
}

/**
 * A mirror's files: the weights, a file published with a sha256 it does not have, a spare, and
 * the hub repository (without its config.json on the primary).
 */
async function mirrorRoot(prefix: string, hubFiles: Record<string, string>): Promise<string> {
  const root = (await tempDir(prefix)).path;
  await putHubRepo(root, hubFiles);
  await putFile(root, MODEL_FILE, WEIGHTS);
  await putFile(root, `${MODEL_FILE}.sha256`, `${sha256(WEIGHTS)}  model.safetensors\n`);
  await putFile(root, BAD_FILE, "simulated weights, changed after publishing");
  await putFile(root, `${BAD_FILE}.sha256`, `${sha256("simulated weights")}  model.safetensors\n`);
  await putFile(root, SPARE_FILE, "simulated spare weights");
  return root;
}

describe("mirrors", () => {
  let fleet: Fleet;
  let primary: FileServer;
  let peer: FileServer;

  beforeAll(async () => {
    const { "config.json": _lacking, ...primaryHubFiles } = HUB_FILES;
    primary = await startFileServer(await mirrorRoot("it-mirror-primary", primaryHubFiles), true);
    peer = await startFileServer(await mirrorRoot("it-mirror-peer", HUB_FILES), false);
    fleet = await startFleet({
      env: {
        LLMGW_RESYNC_INTERVAL_MS: "300",
        LLMGW_MIRRORS: `primary=${primary.baseUrl},peer=${peer.baseUrl}`,
        LLMGW_MIRROR_CHECK_MS: "2000",
        LLMGW_FAILURE_BACKOFF_MS: "60000",
      },
      agents: [{ name: "it-mirror-gpu", profile: "h100x8" }],
    });
    await waitFor(
      async () => {
        const mirrors = await fleet.api.mirrors.list.query();
        return mirrors.every((mirror) => mirror.state === "up") || undefined;
      },
      { what: "both mirrors up", timeoutMs: 30_000 },
    );
  });

  afterAll(async () => {
    await fleet?.stop(Boolean(process.env.IT_DUMP));
    for (const files of [primary, peer]) {
      files?.server.closeAllConnections();
      files?.server.close();
    }
  });

  it("fetches a hub id from the mirrors in the HF layout, past a mirror lacking a listed file", async () => {
    await fleet.api.models.add.mutate({ definition: simGpuModel("hubbed", `hf:${HUB_REPO}`) });
    await fleet.readyReplicas("hubbed", 1);
    // The primary was asked first: its list names config.json, which it does not hold.
    expect(primary.gets).toContain(`api/models/${HUB_REPO}/revision/main`);
    expect(peer.gets).toContain(`${HUB_REPO}/resolve/main/model.safetensors`);
    expect(peer.gets).not.toContain(`${HUB_REPO}/resolve/main/.gitattributes`);
    const repo = path.join(
      fleet.agent("it-mirror-gpu").dataDir,
      "cache",
      sha256(`hf:${HUB_REPO}`).slice(0, 16),
      "repo",
    );
    expect((await readdir(repo)).sort()).toEqual(["config.json", "model.safetensors"]);
    expect(await readFile(path.join(repo, "model.safetensors"), "utf8")).toBe(
      HUB_FILES["model.safetensors"],
    );

    // `ctl mirror list` says which mirror holds the whole repository.
    const hubOn = (
      mirrors: Awaited<ReturnType<typeof fleet.api.mirrors.list.query>>,
      name: string,
    ) => mirrors.find((m) => m.name === name)?.files.find((f) => f.path === `hf:${HUB_REPO}`);
    const mirrors = await waitFor(
      async () => {
        const listed = await fleet.api.mirrors.list.query();
        return hubOn(listed, "primary")?.isHeld === false ? listed : undefined;
      },
      { what: "the primary's holdings of the hub repository looked up", timeoutMs: 30_000 },
    );
    expect(hubOn(mirrors, "peer")).toEqual({
      path: `hf:${HUB_REPO}`,
      models: ["hubbed"],
      isHeld: true,
    });
    // A file of a repository the catalog loads cannot be removed from a mirror.
    await expect(
      fleet.api.mirrors.remove.mutate({
        mirror: "peer",
        path: `${HUB_REPO}/resolve/main/model.safetensors`,
      }),
    ).rejects.toThrow("is loaded by hubbed");
  });

  it("moves the fetch to the peer when the primary is killed mid-download", async () => {
    await fleet.api.models.add.mutate({
      definition: simGpuModel("mirrored", `mirror:${MODEL_FILE}`),
    });
    await waitFor(async () => primary.gets.includes(MODEL_FILE) || undefined, {
      what: "the node fetching the weights from the primary",
      timeoutMs: 30_000,
    });
    primary.server.closeAllConnections();
    primary.server.close();
    await fleet.readyReplicas("mirrored", 1);
    expect(peer.gets).toContain(MODEL_FILE);

    const mirrors = await waitFor(
      async () => {
        const listed = await fleet.api.mirrors.list.query();
        return listed.find((m) => m.name === "primary")?.state === "down" ? listed : undefined;
      },
      { what: "the primary marked down", timeoutMs: 30_000 },
    );
    const peerView = mirrors.find((m) => m.name === "peer");
    expect(peerView?.state).toBe("up");
    expect(peerView?.files).toContainEqual({
      path: MODEL_FILE,
      models: ["mirrored"],
      isHeld: true,
    });
    const metrics = await (await fetch(fleet.v1.replace(/\/v1$/, "/metrics"))).text();
    expect(metrics).toContain('llmgw_mirror_up{mirror="primary"} 0');
    expect(metrics).toContain('llmgw_mirror_up{mirror="peer"} 1');
  });

  it("refuses a file whose sha256 is not the one the mirror publishes, naming the file", async () => {
    await fleet.api.models.add.mutate({
      definition: simGpuModel("tampered", `mirror:${BAD_FILE}`),
    });
    const failed = await waitFor(
      async () => {
        const model = await fleet.api.models.get.query({ name: "tampered" });
        return model.lastError === null ? undefined : { message: model.lastError };
      },
      { what: "the tampered model's start failing", timeoutMs: 30_000 },
    );
    expect(failed.message).toContain(`${BAD_FILE} on mirror peer: sha256 is`);
    expect(failed.message).toContain("model.safetensors.sha256");
    // Nothing of the refused file is kept in the node's cache entry for it.
    const entry = path.join(
      fleet.agent("it-mirror-gpu").dataDir,
      "cache",
      sha256(`mirror:${BAD_FILE}`).slice(0, 16),
    );
    expect(await readdir(entry)).toEqual([]);
  });

  it("refuses to remove a file a catalog model loads, naming the model; removes one none loads", async () => {
    await expect(
      fleet.api.mirrors.remove.mutate({ mirror: "peer", path: MODEL_FILE }),
    ).rejects.toThrow(`${MODEL_FILE} on mirror peer is loaded by mirrored`);
    expect(existsSync(path.join(peer.root, MODEL_FILE))).toBe(true);
    await expect(
      fleet.api.mirrors.remove.mutate({ mirror: "peer", path: "../../etc/passwd" }),
    ).rejects.toThrow("is not a path on a mirror");
    await expect(
      fleet.api.mirrors.remove.mutate({ mirror: "nowhere", path: SPARE_FILE }),
    ).rejects.toThrow("the server's mirrors are: primary, peer");
    await fleet.api.mirrors.remove.mutate({ mirror: "peer", path: SPARE_FILE });
    expect(existsSync(path.join(peer.root, SPARE_FILE))).toBe(false);
  });
});
