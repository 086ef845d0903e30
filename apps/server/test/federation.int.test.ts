// Federation end to end: three real llmgw servers (A, B, C), each with its own agent, simulated
// cards and sim-engine replicas (simulated: no GPUs here). A peers B, B peers A and C. Peer
// models are listed and served through the official `openai` client, a request that comes back
// round A → B → A is refused with 508, a model that must stay local never leaves, a model with no
// room overflows to a peer, and a peer killed mid-run is taken out of routing: its models answer
// 503 with a code at once instead of waiting on a dead address. A key made with no_store never
// reaches a peer.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import { rejectionOf, simGpuModel, simWeightsSource, startFleet, type Fleet } from "./harness";

/**
 * A stand-in peer (a real HTTP server, answering as a cluster would) that keeps the headers each
 * request brought, to show what a peer receives.
 */
async function startProbePeer(): Promise<{
  url: string;
  seen: IncomingHttpHeaders[];
  server: Server;
}> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    if (req.url === "/ready") return res.writeHead(200).end("ready");
    if (req.url === "/v1/models")
      return res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ object: "list", data: [{ id: "echo", object: "model" }] }));
    seen.push(req.headers);
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: "probe-1",
        object: "chat.completion",
        created: 0,
        model: "echo",
        choices: [
          { index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, server };
}

/** Three servers, three agents and their replicas start one after another on a loaded machine. */
const FLEETS_START_MS = 240_000;

const ENV = { LLMGW_RESYNC_INTERVAL_MS: "300", LLMGW_FEDERATION_CHECK_MS: "500" };

describe("federation between three clusters", () => {
  let a: Fleet;
  let b: Fleet;
  let c: Fleet;
  let aKey: string;
  let aClusterId: string;
  let bClusterId: string;
  let probe: Awaited<ReturnType<typeof startProbePeer>>;

  const client = (fleet: Fleet, apiKey: string) =>
    new OpenAI({ apiKey, baseURL: fleet.v1, maxRetries: 0 });
  const chat = (fleet: Fleet, key: string, model: string, headers: Record<string, string> = {}) =>
    fetch(`${fleet.v1}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }], max_tokens: 4 }),
    });
  /** A key of `to` that `from` uses to reach it, given to `from` as a peer named `name`. */
  const peer = async (from: Fleet, name: string, to: Fleet) => {
    const { key } = await to.api.keys.create.mutate({ owner: "team:peers", models: ["*"] });
    const url = to.v1.replace(/\/v1$/, "");
    return from.api.federation.add.mutate({ name, url, key });
  };

  beforeAll(async () => {
    const source = await simWeightsSource("it-fed-weights");
    const start = (name: string) =>
      startFleet({ env: ENV, agents: [{ name: `it-fed-${name}`, profile: "l40sx4" }] });
    // One after another: three servers migrating their stores at once on a loaded 2-core machine
    // can take longer than a start is given.
    a = await start("a");
    b = await start("b");
    c = await start("c");
    await Promise.all([
      a.api.models.add.mutate({ definition: simGpuModel("a-sim", source) }),
      b.api.models.add.mutate({ definition: simGpuModel("b-sim", source) }),
      c.api.models.add.mutate({ definition: simGpuModel("c-sim", source) }),
      // Simulated cards: four per node, so a model that needs eight has no room here.
      a.api.models.add.mutate({ definition: simGpuModel("a-big", source, { gpus: 8 }) }),
      a.api.models.add.mutate({
        definition: { ...simGpuModel("a-local", source, { gpus: 8 }), residency: "local" },
      }),
    ]);
    await Promise.all([
      a.readyReplicas("a-sim", 1),
      b.readyReplicas("b-sim", 1),
      c.readyReplicas("c-sim", 1),
    ]);
    // C first, so B offers C's models when A syncs B; B peers A too, which makes the loop.
    await peer(b, "c", c);
    await peer(a, "b", b);
    await peer(b, "a", a);
    await a.api.federation.sync.mutate({});
    await a.api.models.setFallbacks.mutate({ name: "a-big", fallbacks: ["b/b-sim"] });
    await a.api.models.setFallbacks.mutate({ name: "a-local", fallbacks: ["b/b-sim"] });
    aKey = (await a.api.keys.create.mutate({ owner: "team:ml", models: ["*"] })).key;
    aClusterId = (await a.api.status.get.query()).clusterId;
    bClusterId = (await b.api.status.get.query()).clusterId;
    probe = await startProbePeer();
    await a.api.federation.add.mutate({
      name: "probe",
      url: probe.url,
      key: "probe-key",
      sendsTags: true,
    });
  }, FLEETS_START_MS);

  afterAll(async () => {
    const dump = Boolean(process.env.IT_DUMP);
    probe?.server.close();
    await Promise.all([a, b, c].map((fleet) => fleet?.stop(dump)));
  });

  it("lists a peer's models as PEER/MODEL, its peers' models a hop further, with state and latency", async () => {
    const models = await client(a, aKey).models.list();
    expect(models.data.map((m) => m.id)).toEqual(
      expect.arrayContaining(["a-sim", "b/b-sim", "b/c/c-sim"]),
    );
    const [listed] = await a.api.federation.list.query();
    expect(listed).toMatchObject({ name: "b", state: "up", lastError: null });
    expect(listed?.latencyMs).toEqual(expect.any(Number));
  });

  it("serves a peer's model, and its peer's, with the official client", async () => {
    const direct = await client(a, aKey).chat.completions.create({
      model: "b/b-sim",
      messages: [{ role: "user", content: "hello" }],
      max_tokens: 8,
    });
    expect(direct.choices[0]?.message.content?.length).toBeGreaterThan(0);
    const stream = await client(a, aKey).chat.completions.create({
      model: "b/c/c-sim",
      messages: [{ role: "user", content: "hello" }],
      max_tokens: 8,
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    // B counts what A sent under the key B gave A.
    const row = await waitFor(
      async () =>
        (await b.api.usage.query.query({ owner: "team:peers" })).rows.find(
          (r) => r.model === "b-sim" && r.requests >= 1,
        ),
      { what: "B's usage of A's requests", timeoutMs: 30_000 },
    );
    expect(row.completionTokens).toBeGreaterThan(0);
  });

  it("sends the peer its own key, the hops, the request id and, with --send-tags, the caller", async () => {
    const answer = await chat(a, aKey, "probe/echo", { "x-request-id": "it-fed-request-1" });
    expect(answer.status).toBe(200);
    const headers = probe.seen.at(-1);
    expect(headers).toMatchObject({
      authorization: "Bearer probe-key",
      "x-request-id": "it-fed-request-1",
      "x-llmgw-hop": aClusterId,
    });
    expect(headers?.["x-llmgw-attribution"]).toMatch(/^owner=team:ml;key=/);
    // B was added without --send-tags: what reaches it names A's key, never the caller.
    expect(JSON.stringify(headers)).not.toContain(aKey);
  });

  it("refuses with 508 a request that comes back round A → B → A, and a forged hop naming A", async () => {
    // B offers A's models as a/…, so A offers them as b/a/…: A → B → A.
    await waitFor(
      async () => (await client(a, aKey).models.list()).data.find((m) => m.id === "b/a/a-sim"),
      { what: "A offering b/a/a-sim", timeoutMs: 30_000 },
    );
    const loop = await chat(a, aKey, "b/a/a-sim");
    expect(loop.status).toBe(508);
    const refusal = ((await loop.json()) as { error: { code: string; message: string } }).error;
    expect(refusal.code).toBe("federation_loop");
    expect(refusal.message).toContain(`${aClusterId},${bClusterId}`);
    const forged = await chat(a, aKey, "a-sim", { "x-llmgw-hop": `x1,${aClusterId}` });
    expect(forged.status).toBe(508);
    const garbled = await chat(a, aKey, "a-sim", { "x-llmgw-hop": "x1,<script>" });
    expect(garbled.status).toBe(400);
    expect(((await garbled.json()) as { error: { code: string } }).error.code).toBe(
      "federation_bad_hop",
    );
  });

  it("overflows a model with no room to its peer fallback, but never a model kept local", async () => {
    const overflow = await chat(a, aKey, "a-big");
    expect(overflow.status).toBe(200);
    expect(overflow.headers.get("x-llmgw-fallback-from")).toBe("a-big");
    const local = await chat(a, aKey, "a-local");
    expect(local.status).toBe(503);
    expect(local.headers.get("x-llmgw-fallback-from")).toBeNull();
    expect(
      await rejectionOf(
        a.api.models.setFallbacks.mutate({ name: "a-big", fallbacks: ["b/ghost"] }),
      ),
    ).toContain(`fallback "b/ghost" is no peer's model`);
  });

  it("never sends a request of a key with residency local to a peer, nor lists peers' models to it", async () => {
    const { key } = await a.api.keys.create.mutate({
      owner: "team:eu",
      models: ["*"],
      residency: "local",
    });
    const refused = await chat(a, key, "b/b-sim");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      "residency_local",
    );
    const overflow = await chat(a, key, "a-big");
    expect(overflow.status).toBe(503);
    const listed = (await client(a, key).models.list()).data.map((m) => m.id);
    expect(listed).toContain("a-sim");
    expect(listed.filter((id) => id.includes("/"))).toEqual([]);
  });

  it("never sends a request of a no_store key to a peer, not even one it names itself", async () => {
    const { key } = await a.api.keys.create.mutate({
      owner: "team:legal",
      models: ["*"],
      noStore: true,
    });
    const seenBefore = probe.seen.length;
    // The attack: name the peer's model outright, and ask for a model that would overflow to one.
    const refused = await chat(a, key, "probe/echo");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("no_store");
    expect((await chat(a, key, "a-big")).status).toBe(503);
    expect(probe.seen.length).toBe(seenBefore);
    const listed = (await client(a, key).models.list()).data.map((m) => m.id);
    expect(listed.filter((id) => id.includes("/"))).toEqual([]);
  });

  it("takes a peer killed mid-run out of routing: its models answer 503 with a code at once", async () => {
    expect((await chat(b, await bKey(), "c/c-sim")).status).toBe(200);
    await c.server.process.stop();
    const [down] = await waitFor(
      async () => {
        const peers = await b.api.federation.list.query();
        const found = peers.filter((p) => p.name === "c" && p.state === "down");
        return found.length > 0 ? found : undefined;
      },
      { what: "B taking C out of routing", timeoutMs: 30_000 },
    );
    expect(down?.lastError).toContain("/ready");
    const answer = await chat(b, await bKey(), "c/c-sim");
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(
      "peer_unavailable",
    );
    const metrics = await (await fetch(b.v1.replace(/\/v1$/, "/metrics"))).text();
    expect(metrics).toContain('llmgw_federation_peer_up{peer="c"} 0');
    expect(metrics).toContain('llmgw_federation_peer_up{peer="a"} 1');
  });

  let bKeyValue: string | undefined;
  async function bKey(): Promise<string> {
    bKeyValue ??= (await b.api.keys.create.mutate({ owner: "team:b", models: ["*"] })).key;
    return bKeyValue;
  }
});
