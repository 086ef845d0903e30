// The gate in front of a recording stand-in for ComfyUI: each attack is the request an attacker
// would send, and the stand-in shows what (if anything) reached ComfyUI.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGateServer } from "./gate-server";

const KEY = "k".repeat(43);
let upstream: Server;
let gate: Server;
let gateUrl = "";
let received: { method: string; url: string; body: string }[] = [];
let isUp = true;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeEach(async () => {
  received = [];
  isUp = true;
  upstream = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", body });
      res.writeHead(200, {
        "content-type": req.url?.startsWith("/view") ? "image/png" : "application/json",
      });
      res.end(req.url?.startsWith("/view") ? Buffer.from([0x89, 0x50]) : '{"from":"comfyui"}');
    });
  });
  const upstreamUrl = await listen(upstream);
  gate = createGateServer({
    apiKey: KEY,
    servedModelName: "flux-schnell",
    upstreamUrl,
    isUpstreamUp: () => Promise.resolve(isUp),
    log: () => undefined,
  });
  gateUrl = await listen(gate);
});

afterEach(async () => {
  for (const server of [gate, upstream]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const withKey = (init: RequestInit = {}, key = KEY): RequestInit => ({
  ...init,
  headers: {
    ...(init.headers as Record<string, string> | undefined),
    authorization: `Bearer ${key}`,
  },
});

describe("comfyui gate", () => {
  it("refuses a request without the key, and one with a wrong key, before ComfyUI sees it", async () => {
    const bare = await fetch(`${gateUrl}/prompt`, { method: "POST", body: '{"prompt":{}}' });
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toBe("Bearer");
    expect(await bare.json()).toMatchObject({ error: { type: "authentication_error" } });
    const wrong = await fetch(`${gateUrl}/queue`, withKey({}, `${KEY.slice(1)}x`));
    expect(wrong.status).toBe(401);
    const basic = await fetch(`${gateUrl}/queue`, { headers: { authorization: `Basic ${KEY}` } });
    expect(basic.status).toBe(401);
    expect((await fetch(`${gateUrl}/health`)).status).toBe(401);
    expect(received).toEqual([]);
  });

  it("passes a workflow, the queue, a history and an interrupt through with the key", async () => {
    const prompt = { prompt: { "9": { class_type: "SaveImage", inputs: {} } }, client_id: "r1" };
    const queued = await fetch(
      `${gateUrl}/prompt`,
      withKey({ method: "POST", body: JSON.stringify(prompt) }),
    );
    expect(await queued.json()).toEqual({ from: "comfyui" });
    await fetch(`${gateUrl}/queue`, withKey());
    await fetch(`${gateUrl}/history/0b4f-77aa`, withKey());
    await fetch(
      `${gateUrl}/interrupt`,
      withKey({ method: "POST", body: '{"prompt_id":"0b4f-77aa"}' }),
    );
    await fetch(`${gateUrl}/object_info`, withKey());
    expect(received.map(({ method, url }) => `${method} ${url}`)).toEqual([
      "POST /prompt",
      "GET /queue",
      "GET /history/0b4f-77aa",
      "POST /interrupt",
      "GET /object_info",
    ]);
    expect(JSON.parse(received[0]?.body ?? "")).toEqual(prompt);
  });

  it("answers /health by whether ComfyUI answers, and /v1/models with the served name", async () => {
    expect((await fetch(`${gateUrl}/health`, withKey())).status).toBe(200);
    isUp = false;
    expect((await fetch(`${gateUrl}/health`, withKey())).status).toBe(503);
    const models = await fetch(`${gateUrl}/v1/models`, withKey());
    expect(await models.json()).toMatchObject({
      data: [{ id: "flux-schnell", owned_by: "comfyui" }],
    });
  });

  it("refuses path traversal in /view and passes a plain picture name", async () => {
    for (const query of [
      "filename=../../etc/passwd",
      "filename=passwd&subfolder=../../etc",
      "filename=%2Fetc%2Fpasswd",
      "filename=a.png&subfolder=%2Fetc",
      "filename=a.png&type=input",
      "filename=..%5C..%5Cwin.ini",
    ]) {
      const response = await fetch(`${gateUrl}/view?${query}`, withKey());
      expect(response.status, query).toBe(400);
    }
    expect(received).toEqual([]);
    const picture = await fetch(
      `${gateUrl}/view?filename=flux_00001_.png&subfolder=llmgw&extra=1`,
      withKey(),
    );
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/png");
    expect(received.map(({ url }) => url)).toEqual([
      "/view?filename=flux_00001_.png&subfolder=llmgw&type=output",
    ]);
  });

  it("refuses routes the router never uses, even with the key", async () => {
    const attempts: [string, string, number][] = [
      ["POST", "/upload/image", 404],
      ["GET", "/api/manager/queue/install", 404],
      ["POST", "/api/prompt", 404],
      ["GET", "/ws", 404],
      ["GET", "/userdata/comfy.settings.json", 404],
      ["POST", "/history", 404],
      ["GET", "/__proto__", 404],
      ["DELETE", "/queue", 405],
      ["GET", "/prompt", 405],
      ["POST", "/object_info", 405],
    ];
    for (const [method, path, status] of attempts) {
      const response = await fetch(`${gateUrl}${path}`, withKey({ method }));
      expect(response.status, `${method} ${path}`).toBe(status);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
        path.split("/")[1] ?? "",
      );
    }
    expect(received).toEqual([]);
  });

  it("lets POST /queue delete prompts but not clear the whole queue", async () => {
    const clear = await fetch(
      `${gateUrl}/queue`,
      withKey({ method: "POST", body: '{"clear":true}' }),
    );
    expect(clear.status).toBe(400);
    const sneaky = await fetch(
      `${gateUrl}/queue`,
      withKey({ method: "POST", body: '{"delete":["a"],"clear":true}' }),
    );
    expect(sneaky.status).toBe(400);
    const notJson = await fetch(`${gateUrl}/prompt`, withKey({ method: "POST", body: "{" }));
    expect(notJson.status).toBe(400);
    expect(received).toEqual([]);
    expect(
      (await fetch(`${gateUrl}/queue`, withKey({ method: "POST", body: '{"delete":["a-1"]}' })))
        .status,
    ).toBe(200);
    expect(received).toEqual([{ method: "POST", url: "/queue", body: '{"delete":["a-1"]}' }]);
  });

  it("answers 502 without internals when ComfyUI is gone", async () => {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
    upstream = createServer();
    const response = await fetch(`${gateUrl}/queue`, withKey());
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: { message: "ComfyUI did not answer", type: "upstream_error" },
    });
  });
});
