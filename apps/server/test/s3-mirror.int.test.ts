// A private S3-compatible store as a mirror, end to end: moto_server (a real S3 API on loopback,
// s3-moto.ts) holds the files, a real server names it in LLMGW_MIRRORS with its keys, a real agent
// with simulated cards fetches a mirror: file and an hf: repository through the URLs the server
// signed, and refuses a file whose published sha256 does not match. A second store whose secret
// is wrong (moto checking signatures) is marked down with a sentence naming the setting to check.
// The secret appears in no output of the server or the agent, nor in `mirror list`.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import { simGpuModel, startFleet, type Fleet } from "./harness";
import { startMoto, type MotoStore } from "./s3-moto";

const PREFIX = "llm/";
const MODEL_FILE = "org/tiny/model.safetensors";
const BAD_FILE = "org/bad/model.safetensors";
const HUB_REPO = "org/hubtiny";
const HUB_WEIGHTS = "simulated hub weights";
const WEIGHTS = Buffer.alloc(1024 * 1024, 7);
const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

async function put(store: MotoStore, relative: string, body: Buffer | string): Promise<void> {
  const answer = await store.send("PUT", `/models/${PREFIX}${relative}`, body);
  if (!answer.ok) throw new Error(`PUT ${relative}: HTTP ${answer.status}`);
}

async function fillStore(store: MotoStore): Promise<void> {
  await put(store, MODEL_FILE, WEIGHTS);
  await put(store, `${MODEL_FILE}.sha256`, `${sha256(WEIGHTS)}  model.safetensors\n`);
  await put(store, BAD_FILE, "simulated weights, changed after publishing");
  await put(store, `${BAD_FILE}.sha256`, `${sha256("simulated weights")}  model.safetensors\n`);
  const siblings = [
    { rfilename: ".gitattributes" },
    { rfilename: "config.json" },
    {
      rfilename: "model.safetensors",
      lfs: { sha256: sha256(HUB_WEIGHTS), size: HUB_WEIGHTS.length },
    },
  ];
  await put(store, `api/models/${HUB_REPO}/revision/main`, JSON.stringify({ siblings }));
  await put(
    store,
    `${HUB_REPO}/resolve/main/config.json`,
    '{"architectures":["LlamaForCausalLM"]}',
  );
  await put(store, `${HUB_REPO}/resolve/main/model.safetensors`, HUB_WEIGHTS);
}

describe("S3-compatible mirrors", () => {
  let fleet: Fleet;
  let open: MotoStore;
  let locked: MotoStore;

  beforeAll(async () => {
    open = await startMoto({ bucket: "models", auth: false });
    locked = await startMoto({ bucket: "models", auth: true });
    await fillStore(open);
    fleet = await startFleet({
      env: {
        LLMGW_RESYNC_INTERVAL_MS: "300",
        LLMGW_MIRRORS: `store=s3://models/${PREFIX},locked=s3://models/${PREFIX}`,
        LLMGW_MIRROR_STORE_ENDPOINT: open.endpoint,
        LLMGW_MIRROR_STORE_ACCESS_KEY_ID: open.accessKeyId,
        LLMGW_MIRROR_STORE_SECRET_ACCESS_KEY: open.secretAccessKey,
        LLMGW_MIRROR_LOCKED_ENDPOINT: locked.endpoint,
        LLMGW_MIRROR_LOCKED_ACCESS_KEY_ID: locked.accessKeyId,
        LLMGW_MIRROR_LOCKED_SECRET_ACCESS_KEY: "not-the-secret-of-the-locked-store",
        LLMGW_MIRROR_CHECK_MS: "1000",
        // A start racing the first signing of a new model's files is tried again soon.
        LLMGW_FAILURE_BACKOFF_MS: "500",
      },
      agents: [{ name: "it-s3-gpu", profile: "h100x8" }],
    });
    await waitFor(
      async () => {
        const mirrors = await fleet.api.mirrors.list.query();
        return mirrors.every((mirror) => mirror.state !== "unknown") || undefined;
      },
      { what: "both stores checked", timeoutMs: 30_000 },
    );
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop(Boolean(process.env.IT_DUMP));
    await open?.stop();
    await locked?.stop();
  });

  it("marks a store whose secret is wrong down, naming what to check", async () => {
    const mirrors = await fleet.api.mirrors.list.query();
    const view = mirrors.find((mirror) => mirror.name === "locked");
    expect(view?.state).toBe("down");
    expect(view?.lastError).toContain("HTTP 403");
    expect(view?.lastError).toContain("LLMGW_MIRROR_LOCKED_SECRET_ACCESS_KEY");
    expect(view?.baseUrl).toBe(`s3://models/${PREFIX} at ${locked.endpoint}`);
    expect(mirrors.find((mirror) => mirror.name === "store")?.state).toBe("up");
  });

  it("fetches a mirror: file through the URL the server signed", async () => {
    await fleet.api.models.add.mutate({
      definition: simGpuModel("s3-mirrored", `mirror:${MODEL_FILE}`),
    });
    await fleet.readyReplicas("s3-mirrored", 1);
    const entry = path.join(
      fleet.agent("it-s3-gpu").dataDir,
      "cache",
      sha256(`mirror:${MODEL_FILE}`).slice(0, 16),
    );
    expect(await readFile(path.join(entry, "model.safetensors"))).toEqual(WEIGHTS);
  });

  it("fetches an hf: repository from the store", async () => {
    await fleet.api.models.add.mutate({ definition: simGpuModel("s3-hub", `hf:${HUB_REPO}`) });
    await fleet.readyReplicas("s3-hub", 1);
    const repo = path.join(
      fleet.agent("it-s3-gpu").dataDir,
      "cache",
      sha256(`hf:${HUB_REPO}`).slice(0, 16),
      "repo",
    );
    expect((await readdir(repo)).sort()).toEqual(["config.json", "model.safetensors"]);
    const mirrors = await waitFor(
      async () => {
        const listed = await fleet.api.mirrors.list.query();
        const held = listed
          .find((m) => m.name === "store")
          ?.files.find((f) => f.path === `hf:${HUB_REPO}`);
        return held?.isHeld === true ? listed : undefined;
      },
      { what: "the store's holdings of the hub repository", timeoutMs: 30_000 },
    );
    expect(JSON.stringify(mirrors)).not.toContain(open.secretAccessKey);
  });

  it("refuses a file whose sha256 is not the one the store publishes", async () => {
    await fleet.api.models.add.mutate({
      definition: simGpuModel("s3-tampered", `mirror:${BAD_FILE}`),
    });
    const failed = await waitFor(
      async () => {
        const model = await fleet.api.models.get.query({ name: "s3-tampered" });
        return model.lastError?.includes("sha256 is") ? model.lastError : undefined;
      },
      { what: "the tampered model's start failing", timeoutMs: 30_000 },
    );
    expect(failed).toContain(`${BAD_FILE} on mirror store: sha256 is`);
    expect(failed).not.toContain("X-Amz-Signature");
  });

  it("shows the secret nowhere: not in the server's or the agent's output", () => {
    const outputs = [fleet.server.process.output(), fleet.agent("it-s3-gpu").process.output()];
    for (const output of outputs) {
      expect(output).not.toContain(open.secretAccessKey);
      expect(output).not.toContain("not-the-secret-of-the-locked-store");
    }
  });
});
