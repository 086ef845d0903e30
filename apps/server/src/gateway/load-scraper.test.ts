import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Breaker } from "@llmgw/domain";
import { deriveReplicaKey } from "@llmgw/engines";
import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import type { Endpoint, EndpointPool } from "./endpoints";
import { startLoadScraper } from "./load-scraper";

const SECRET = new Uint8Array(32).fill(7);
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** An engine whose /metrics says 3 requests wait; it remembers the keys it was sent. */
async function engine(): Promise<{ port: number; keys: string[] }> {
  const keys: string[] = [];
  const server: Server = createServer((req, res) => {
    keys.push(req.headers.authorization ?? "");
    res.writeHead(200).end("vllm:num_requests_waiting 3\nvllm:num_requests_running 1\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(() => server.close());
  return { port: (server.address() as AddressInfo).port, keys };
}

/** Replicas that note when their engine name is read: a scrape of it has begun. */
function replicas(count: number, port: number): { endpoints: Endpoint[]; begun: () => number } {
  const read = new Set<string>();
  const endpoints = Array.from({ length: count }, (_, i) => {
    const endpoint: Endpoint = {
      id: `replica-${i}`,
      model: "m",
      engine: "vllm",
      baseUrl: `http://127.0.0.1:${port}`,
      inFlight: 0,
      breaker: new Breaker(),
      waiting: null,
      weight: 1,
    };
    return Object.defineProperty(endpoint, "engine", {
      get: () => {
        read.add(endpoint.id);
        return "vllm";
      },
    });
  });
  return { endpoints, begun: () => read.size };
}

function scraperOver(endpoints: Endpoint[], lines: string[] = []) {
  // A connection for each replica, so no scrape waits in the agent's queue past its 1.5 s timeout.
  const agent = new Agent({ connections: 128 });
  const scraper = startLoadScraper({
    pool: { replicaEndpoints: () => endpoints } as unknown as EndpointPool,
    agent,
    replicaSecret: SECRET,
    intervalMs: 3_600_000,
    sink: { record: () => undefined },
    nowMs: () => Date.now(),
    log: (line) => lines.push(line),
  });
  stops.push(() => {
    scraper.stop();
    void agent.close();
  });
  return scraper;
}

describe("load scraper", () => {
  it("does not start thousands of scrapes in one turn of the event loop, and still reads every replica", async () => {
    const { port } = await engine();
    const { endpoints, begun } = replicas(120, port);
    const lines: string[] = [];
    const scraper = scraperOver(endpoints, lines);
    const round = scraper.scrapeOnce();
    // Starting them all at once held the loop for 100 ms and more at 4,000 replicas.
    expect(begun()).toBeLessThanOrEqual(50);
    await round;
    expect(begun()).toBe(120);
    const unread = endpoints.filter((endpoint) => endpoint.waiting !== 3).map((e) => e.id);
    expect(unread, lines.join("\n")).toEqual([]);
  });

  it("sends each replica its own derived key, derived once and kept", async () => {
    const { port, keys } = await engine();
    const { endpoints } = replicas(3, port);
    const scraper = scraperOver(endpoints);
    await scraper.scrapeOnce();
    await scraper.scrapeOnce();
    const expected = endpoints.map((e) => `Bearer ${deriveReplicaKey(SECRET, e.id)}`);
    expect([...keys].sort()).toEqual([...expected, ...expected].sort());
    expect(endpoints.map((e) => e.replicaKey)).toEqual(
      endpoints.map((e) => deriveReplicaKey(SECRET, e.id)),
    );
  });
});
