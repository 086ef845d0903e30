// External models end to end: a real server calling a small OpenAI-shaped provider that this test
// runs on loopback (the server is told to allow private upstreams). The provider knows one good
// key; it records every request, so the test sees which key, which model name and which paths
// reached it. Key files come from LLMGW_KEY_FILE_DIR only; a key may be kept sealed instead. A real agent with free cards is connected, to show external models are never placed.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "@llmgw/testing";
import { startFleet, type Api, type Fleet, type ServerHandle, type ServerSetup } from "./harness";

const GOOD_KEY = "sk-provider-good-0123456789";
const BAD_KEY = "sk-provider-revoked-9876543210";

interface Seen {
  path: string;
  authorization: string | undefined;
  model: unknown;
}

/** A provider: 401 for any key but the good one; 429 while `limited`; else a chat completion. */
async function startProvider(): Promise<{
  url: string;
  seen: Seen[];
  setLimited(on: boolean): void;
  close(): Promise<void>;
}> {
  const seen: Seen[] = [];
  let isLimited = true;
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString("utf8");
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      seen.push({
        path: req.url ?? "",
        authorization: req.headers.authorization,
        model: body.model,
      });
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        res
          .writeHead(status, { "content-type": "application/json", ...headers })
          .end(JSON.stringify(value));
      if (req.headers.authorization !== `Bearer ${GOOD_KEY}`)
        return json(401, {
          error: {
            message: "Incorrect API key provided",
            type: "invalid_request_error",
            code: "invalid_api_key",
          },
        });
      if (isLimited)
        return json(
          429,
          {
            error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" },
          },
          { "retry-after": "1" },
        );
      json(200, {
        id: "chatcmpl-ext",
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: "from the provider" },
            finish_reason: "stop",
          },
        ],
        usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 },
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    setLimited: (on) => {
      isLimited = on;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("external models", () => {
  let server: ServerHandle;
  let fleet: Fleet;
  let api: Api;
  let key: string;
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let keys: { dir: string; good: string; bad: string; missing: string };
  let setup: ServerSetup;

  const chat = (model: string) =>
    fetch(`${server.apiUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
    });
  const errorOf = async (res: Response) =>
    ((await res.json()) as { error: { code: string; message: string } }).error;

  beforeAll(async () => {
    provider = await startProvider();
    const dir = (await tempDir("it-gwx-keys")).path;
    keys = {
      dir,
      good: join(dir, "good.key"),
      bad: join(dir, "bad.key"),
      missing: join(dir, "none.key"),
    };
    await writeFile(keys.good, `${GOOD_KEY}\n`, { mode: 0o600 });
    await writeFile(keys.bad, BAD_KEY, { mode: 0o600 });
    fleet = await startFleet({
      env: {
        LLMGW_KEY_FILE_DIR: dir,
        LLMGW_RESYNC_INTERVAL_MS: "300",
        LLMGW_BREAKER_OPEN_MS: "1500",
        LLMGW_SCRAPE_INTERVAL_MS: "250",
        LLMGW_ALLOW_PRIVATE_UPSTREAMS: "true",
      },
      agents: [{ name: "it-gwx-gpu", profile: "h100x8" }],
    });
    ({ setup, server, api } = fleet);
    const external = (name: string, fields: Record<string, unknown>) => ({
      name,
      external: { url: provider.url, model: "provider-model", ...fields },
    });
    await api.models.add.mutate({
      definition: external("ext-pair", {
        api_key_files: [{ file: keys.bad }, { file: keys.good, weight: 2 }],
      }),
    });
    await api.models.add.mutate({ definition: external("ext-single", { api_key_file: keys.bad }) });
    await api.models.add.mutate({
      definition: external("ext-refused", {
        api_key_files: [{ file: keys.bad }, { file: keys.bad + ".copy" }],
      }),
    });
    await writeFile(keys.bad + ".copy", BAD_KEY);
    await api.models.add.mutate({
      definition: external("ext-unread", {
        api_key_files: [{ file: keys.missing }, { file: keys.good }],
      }),
    });
    await api.models.add.mutate({
      definition: external("ext-nokey", { api_key_file: keys.missing }),
    });
    key = (await api.keys.create.mutate({ owner: "team:ml", models: ["ext-*"] })).key;
  });

  afterAll(async () => {
    await fleet?.stop(Boolean(process.env.IT_DUMP));
    await provider?.close();
  });

  it("passes a refused key and a rate-limited key over, naming endpoints and never keys", async () => {
    provider.setLimited(true);
    const first = await chat("ext-pair");
    expect(first.status).toBe(429);
    expect(Number(first.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const error = await errorOf(first);
    expect(error.code).toBe("external_rate_limited");
    expect(error.message).toContain("external:ext-pair#2");
    expect(error.message).toContain("external:ext-pair#1 refused its key");
    expect(error.message).not.toContain(GOOD_KEY);
    expect(error.message).not.toContain(BAD_KEY);
    // Both keys were really tried, with the provider's model name.
    const tried = provider.seen.slice(-2);
    expect(tried.map((s) => s.authorization).sort()).toEqual([
      `Bearer ${GOOD_KEY}`,
      `Bearer ${BAD_KEY}`,
    ]);
    expect(
      tried.every((s) => s.model === "provider-model" && s.path === "/v1/chat/completions"),
    ).toBe(true);
    // Both breakers are open now: the next request is answered without calling the provider.
    const count = provider.seen.length;
    const resting = await chat("ext-pair");
    expect(resting.status).toBe(503);
    expect((await errorOf(resting)).code).toBe("external_keys_resting");
    expect(provider.seen.length).toBe(count);
  });

  it("serves with the key that works once its breaker lets a probe through, rewriting the model name", async () => {
    provider.setLimited(false);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    const res = await chat("ext-pair");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { model: string }).model).toBe("provider-model");
    expect(provider.seen.at(-1)?.authorization).toBe(`Bearer ${GOOD_KEY}`);
    const metrics = await (await fetch(`${server.apiUrl}/metrics`)).text();
    expect(metrics).toMatch(
      /^llmgw_gateway_upstream_attempts_total\{model="ext-pair",replica="external:ext-pair#2"\} \d+$/m,
    );
  });

  it("passes the provider's 401 to the client when the model has a single key", async () => {
    const res = await chat("ext-single");
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toBe("Incorrect API key provided");
  });

  it("reports external_key_refused when every key is refused", async () => {
    const res = await chat("ext-refused");
    expect(res.status).toBe(502);
    const error = await errorOf(res);
    expect(error.code).toBe("external_key_refused");
    expect(error.message).toMatch(/external:ext-refused#1, external:ext-refused#2/);
    expect(error.message).not.toContain(BAD_KEY);
  });

  it("leaves out a key whose file cannot be read", async () => {
    const res = await chat("ext-unread");
    expect(res.status).toBe(200);
    expect(provider.seen.at(-1)?.authorization).toBe(`Bearer ${GOOD_KEY}`);
    const none = await chat("ext-nokey");
    expect(none.status).toBe(503);
    expect((await errorOf(none)).code).toBe("external_key_unreadable");
  });

  it("refuses to store a model pointing at a metadata address, even with private upstreams allowed", async () => {
    await expect(
      api.models.add.mutate({
        definition: {
          name: "ext-meta",
          external: { url: "http://169.254.169.254/v1", model: "m", api_key_file: keys.good },
        },
      }),
    ).rejects.toThrow(/external\.url: .*169\.254\.169\.254 is a cloud metadata address/);
    await expect(
      api.models.add.mutate({
        definition: {
          name: "ext-userinfo",
          external: {
            url: "https://user:pw@api.example.com/v1",
            model: "m",
            api_key_file: keys.good,
          },
        },
      }),
    ).rejects.toThrow(/carries a user name or password/);
    await expect(api.models.get.query({ name: "ext-meta" })).rejects.toThrow(/not in the catalog/);
    const res = await chat("ext-meta");
    expect(res.status).toBeLessThan(500);
    // The metadata service in IPv6 disguise is refused too, even with private upstreams allowed.
    for (const url of ["http://[::169.254.169.254]/v1", "http://[64:ff9b::a9fe:a9fe]/v1"])
      await expect(
        api.models.add.mutate({ definition: { name: "ext-meta", external: { url, model: "m" } } }),
      ).rejects.toThrow(/hiding 169\.254\.169\.254, a cloud metadata address/);
  });

  it("refuses a key file outside LLMGW_KEY_FILE_DIR, so the server's own secrets are never sent upstream", async () => {
    const masterKeyFile = join(setup.homeDir, "master.key");
    const masterKey = (await readFile(masterKeyFile, "utf8")).trim();
    await symlink(masterKeyFile, join(keys.dir, "innocent.key"));
    const attempt = (api_key_file: string) =>
      api.models.add
        .mutate({
          definition: {
            name: "ext-steal",
            external: { url: provider.url, model: "m", api_key_file },
          },
        })
        .then(
          () => "stored",
          (error: Error) => error.message,
        );
    const refusals = {
      master: await attempt(masterKeyFile),
      missing: await attempt(join(setup.homeDir, "no-such.key")),
      shadow: await attempt("/etc/shadow"),
      climb: await attempt(`${keys.dir}/../master.key`),
      link: await attempt(join(keys.dir, "innocent.key")),
    };
    for (const why of [refusals.master, refusals.missing, refusals.shadow, refusals.climb])
      expect(why).toMatch(/is not a file inside the key file directory .*\(LLMGW_KEY_FILE_DIR\)/);
    expect(refusals.link).toMatch(/leads out of the key file directory .* through a symbolic link/);
    // No existence oracle: a file that exists and one that does not are refused in the same words.
    expect(refusals.master.replace("master.key", "X")).toBe(
      refusals.missing.replace("no-such.key", "X"),
    );
    await expect(api.models.get.query({ name: "ext-steal" })).rejects.toThrow(/not in the catalog/);
    expect(await chat("ext-steal").then((res) => res.status)).toBe(404);
    expect(provider.seen.some((s) => s.authorization?.includes(masterKey))).toBe(false);
  });

  it("sends a key kept sealed in the store, never answering it back, and clears it", async () => {
    await api.models.add.mutate({
      definition: { name: "ext-sealed", external: { url: provider.url, model: "provider-model" } },
    });
    const none = await chat("ext-sealed");
    expect(none.status).toBe(503);
    const unset = await errorOf(none);
    expect(unset.code).toBe("external_key_unreadable");
    expect(unset.message).toMatch(/llmgw ctl model key set/);
    expect((await api.models.get.query({ name: "ext-sealed" })).externalKey).toBe("none");

    const set = await api.models.setKey.mutate({ name: "ext-sealed", key: GOOD_KEY });
    expect(set.externalKey).toBe("sealed");
    expect(JSON.stringify(set)).not.toContain(GOOD_KEY);
    expect(JSON.stringify(await api.models.list.query())).not.toContain(GOOD_KEY);
    const served = await chat("ext-sealed");
    expect(served.status).toBe(200);
    expect(provider.seen.at(-1)?.authorization).toBe(`Bearer ${GOOD_KEY}`);

    // A sealed key is used instead of the model's key files; clearing it brings the files back.
    await api.models.setKey.mutate({ name: "ext-single", key: GOOD_KEY });
    // Its key file's 401s rested that endpoint a moment ago: a new key is not held to them.
    expect((await chat("ext-single")).status).toBe(200);
    const cleared = await api.models.setKey.mutate({ name: "ext-single", key: null });
    expect(cleared.externalKey).toBe("files");
    expect((await chat("ext-single")).status).toBe(401);
    const audit = JSON.stringify(await api.audit.list.query({}));
    expect(audit).toContain("model.key");
    expect(audit).not.toContain(GOOD_KEY);
  });

  it("never places nor scrapes an external model, though the fleet has room", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    for (const name of ["ext-pair", "ext-single", "ext-unread"])
      expect(await api.replicas.list.query({ model: name })).toEqual([]);
    expect(provider.seen.some((s) => s.path.includes("metrics"))).toBe(false);
    const model = await api.models.get.query({ name: "ext-pair" });
    expect(model.replicasDesired).toBe(0);
    expect(model.unplaceableReasons).toEqual([]);
  });
});
