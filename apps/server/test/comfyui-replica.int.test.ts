// The router's side of a comfyui replica: the gateway's image handler against a replica endpoint
// from the replica book, where a stand-in for the replica's gate (the real one is another part)
// demands the replica key before passing a call to the ComfyUI simulator. Also: a replica that
// is not listening is retried elsewhere and answered with upstream_unreachable.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createCatalog, DEFAULT_BREAKER_POLICY, must, RetryBudget } from "@llmgw/domain";
import { deriveReplicaKey } from "@llmgw/engines";
import { startComfySim } from "@llmgw/sim-engine";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveComfyImages } from "../src/gateway/comfy/comfy-images";
import { EndpointPool } from "../src/gateway/endpoints";
import { GatewayError, sendGatewayError } from "../src/gateway/errors";
import type { ReplicaRecord, ReplicaWatcher } from "../src/reconcile/replica-book";

const SECRET = new Uint8Array(32).fill(7);

function replica(id: string, port: number): ReplicaRecord {
  return {
    ...{ id, model: "flux", profile: "comfyui", modelRevision: 1, nodeId: "n1", gpuIndexes: [0] },
    ...{ phase: "ready", message: "", createdAtMs: 0, engine: "comfyui", host: "127.0.0.1", port },
    ...{ fetchProgress: null, phaseChangedAtMs: 0, lastUsedAtMs: null, isLostStopped: false },
    lastSentMs: 0,
  };
}

/** The replica book as the pool reads it: the test swaps its records and the pool is told. */
function recordFeed() {
  let records: ReplicaRecord[] = [];
  let watcher: ReplicaWatcher = () => undefined;
  return {
    get: (id: string) => records.find((r) => r.id === id),
    watch(next: ReplicaWatcher) {
      watcher = next;
      for (const record of records) next(record.id, record);
      return () => undefined;
    },
    set(next: ReplicaRecord[]) {
      for (const record of records) watcher(record.id, undefined);
      records = next;
      for (const record of records) watcher(record.id, record);
    },
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("images from a comfyui replica", () => {
  let sim: Awaited<ReturnType<typeof startComfySim>>;
  let gate: Server;
  let front: Server;
  const book = recordFeed();
  const seenKeys: (string | undefined)[] = [];
  const attempts: string[] = [];

  beforeAll(async () => {
    sim = await startComfySim({ stepMs: 5 });
    // The gate's duty here: the replica key, or 401; then the call as it came.
    gate = createServer((req, res) => {
      seenKeys.push(req.headers.authorization);
      if (req.headers.authorization !== `Bearer ${deriveReplicaKey(SECRET, "flux-r1")}`) {
        res.writeHead(401).end();
        return;
      }
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
        const body = req.method === "POST" ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(`${sim.url}${req.url ?? "/"}`, { method: req.method, body });
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "" });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })();
    });
    const gatePort = await listen(gate);
    book.set([replica("flux-r1", gatePort)]);
    const catalog = createCatalog([
      {
        name: "flux",
        source: "https://example.com/flux1-schnell.safetensors",
        profiles: [{ name: "comfyui", engine: "comfyui", gpu: "H100-80G" }],
      },
    ]);
    if (!catalog.ok) throw new Error(catalog.errors.join("; "));
    const pool = new EndpointPool(
      book,
      { current: () => catalog.catalog, meta: () => undefined },
      DEFAULT_BREAKER_POLICY,
    );
    const agent = new Agent();
    const deps = {
      ...{ pool, agent, externalAgent: agent, allowPrivateUpstreams: true, replicaSecret: SECRET },
      ...{ keyFileDir: null, sealedKey: () => null, nowMs: () => Date.now(), log: () => undefined },
      retryBudget: () => new RetryBudget(1),
      metrics: { attempt: (_model: string, endpointId: string) => void attempts.push(endpointId) },
    };
    const definition = must(catalog.catalog.get("flux"), "the flux model");
    front = createServer((req, res) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
        const job = { model: "flux", definition, raw: Buffer.concat(chunks), requestId: "r-1" };
        const noEndpoint = () => new GatewayError(503, "none", "service_unavailable", "none");
        try {
          await serveComfyImages(
            deps,
            { ...job, signal: new AbortController().signal },
            res,
            noEndpoint,
          );
        } catch (error) {
          if (!(error instanceof GatewayError)) throw error;
          sendGatewayError(res, error, "r-1");
        }
      })();
    });
    await listen(front);
  });

  afterAll(async () => {
    await new Promise((resolve) => front?.close(resolve));
    await new Promise((resolve) => gate?.close(resolve));
    await sim?.close();
  });

  const ask = async () => {
    const { port } = front.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      method: "POST",
      body: JSON.stringify({ model: "flux", prompt: "a boat", size: "256x256" }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("queues, waits and returns the picture through the gate with the replica key", async () => {
    const { status, body } = await ask();
    expect(status).toBe(200);
    const data = body.data as { b64_json: string }[];
    expect(
      Buffer.from(data[0]?.b64_json ?? "", "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    expect(new Set(seenKeys)).toEqual(new Set([`Bearer ${deriveReplicaKey(SECRET, "flux-r1")}`]));
  });

  it("answers upstream_unreachable when no replica is listening, after trying both", async () => {
    const closed = createServer();
    const closedPort = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    book.set([replica("flux-r2", closedPort), replica("flux-r3", closedPort)]);
    attempts.length = 0;
    const { status, body } = await ask();
    expect(attempts.sort()).toEqual(["flux-r2", "flux-r3"]);
    expect(status).toBe(502);
    expect(body.error).toMatchObject({ code: "upstream_unreachable" });
  });
});
