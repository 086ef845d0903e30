// The public port's own routes on a real loopback listener, with the handlers behind it stubbed:
// /metrics behind LLMGW_METRICS_TOKEN, health probes, and the 404 for an unknown path.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "./http-server";

const TOKEN = "metrics-token-0123456789";
const servers: HttpServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((s) => s.close())));

async function start(metricsToken: string | null) {
  const unused = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(418).end();
    return Promise.resolve();
  };
  const server = await startHttpServer({
    host: "127.0.0.1",
    port: 0,
    createContext: () => Promise.reject(new Error("no tRPC here")),
    isReady: () => true,
    metrics: () => Promise.resolve({ contentType: "text/plain", body: "llmgw_up 1\n" }),
    metricsToken,
    v1: unused,
    scim: unused,
    auth: unused,
    mcp: unused,
    releases: unused,
    log: () => undefined,
  });
  servers.push(server);
  return `http://127.0.0.1:${server.port}`;
}

describe("the public port", () => {
  it("serves /metrics to anyone when no metrics token is set", async () => {
    const base = await start(null);
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("llmgw_up 1\n");
  });

  it("answers /metrics only to the metrics token when one is set", async () => {
    const base = await start(TOKEN);
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(
      /LLMGW_METRICS_TOKEN/,
    );
    const wrong = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain("llmgw_up 1");
    // Health probes stay open: a load balancer has no token.
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    // ctl upgrade waits for the restarted control plane to report the new version here.
    expect(await health.json()).toEqual({ ok: true, version: "0.1.0-dev" });
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });
});
