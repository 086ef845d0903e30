// The load against a real HTTP server on loopback that streams as an OpenAI-compatible engine
// does: requests are shared between the step's clients, never more in flight than its concurrency,
// and each is timed to its first content token.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { promptOf, runStep } from "./load";

let server: Server;
let baseUrl: string;
let inFlight = 0;
let mostInFlight = 0;
const bodies: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      bodies.push(body);
      if (req.headers.authorization !== "Bearer engine-key") {
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "bad key" } }));
        return;
      }
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      res.writeHead(200, { "content-type": "text/event-stream" });
      const tokens = Number(body.max_tokens);
      let sent = 0;
      const tick = setInterval(() => {
        if (sent < tokens) {
          res.write(
            `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "x" } }] })}\n\n`,
          );
          sent += 1;
          return;
        }
        clearInterval(tick);
        const usage = { prompt_tokens: 7, completion_tokens: tokens, total_tokens: 7 + tokens };
        res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\ndata: [DONE]\n\n`);
        inFlight -= 1;
        res.end();
      }, 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("runStep", () => {
  it("shares the requests between the clients and times each to its first token", async () => {
    const target = { baseUrl, key: "engine-key", model: "m", ignoreEos: true };
    const shape = { concurrency: 3, requests: 7, promptTokens: 20, maxTokens: 4 };
    const step = await runStep(target, shape);
    expect(step).toMatchObject({ concurrency: 3, requests: 7, failed: 0, meanOutputTokens: 4 });
    expect(step.meanPromptTokens).toBe(7);
    expect(mostInFlight).toBe(3);
    expect(step.ttftMs?.p50).toBeGreaterThan(0);
    expect(step.latencyMs?.p50).toBeGreaterThan(step.ttftMs?.p50 ?? 0);
    expect(bodies[0]).toMatchObject({ stream: true, ignore_eos: true, max_tokens: 4 });
    expect(bodies[0]?.stream_options).toEqual({ include_usage: true });
  });

  it("counts a refused request as failed with the engine's reason, and sends no ignore_eos when told", async () => {
    bodies.length = 0;
    const target = { baseUrl, key: "wrong", model: "m", ignoreEos: false };
    const step = await runStep(target, {
      concurrency: 1,
      requests: 2,
      promptTokens: 5,
      maxTokens: 2,
    });
    expect(step).toMatchObject({ requests: 2, failed: 2 });
    expect(step.errors[0]).toMatch(/^401 /);
    expect(bodies[0]).not.toHaveProperty("ignore_eos");
  });
});

describe("promptOf", () => {
  it("makes a prompt of about the asked length, different for each request", () => {
    expect(promptOf(50, 1).split(" ")).toHaveLength(51);
    expect(promptOf(50, 1)).not.toBe(promptOf(50, 2));
  });
});
