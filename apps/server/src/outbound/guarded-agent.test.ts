import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardedAgent, guardedLookup } from "./guarded-agent";

describe("the guarded agent's connect-time check", () => {
  const server = createServer((_req, res) => res.end("ok"));
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("refuses a name that resolves to a loopback address, naming the name and the address", async () => {
    const agent = createGuardedAgent({ allowPrivate: false, who: "external models" });
    await expect(request(`http://localhost:${port}/`, { dispatcher: agent })).rejects.toThrow(
      /localhost resolves to (127\.0\.0\.1|::1), a loopback address; external models may not reach it/,
    );
    await agent.close();
  });

  it("connects when private addresses are allowed", async () => {
    const agent = createGuardedAgent({ allowPrivate: true, who: "external models" });
    const answer = await request(`http://localhost:${port}/`, { dispatcher: agent });
    expect(await answer.body.text()).toBe("ok");
    await agent.close();
  });

  it("judges every address a name resolves to, the disguised forms included", async () => {
    // localhost resolves through /etc/hosts; the judgement is the domain guard's, IPv6 forms too.
    const lookup = guardedLookup(false, "MCP servers", "; set LLMGW_MCP_ALLOW_PRIVATE=1");
    const refused = await new Promise<Error | null>((resolve) =>
      lookup("localhost", { all: true }, (error) => resolve(error)),
    );
    expect(refused?.message).toMatch(/MCP servers may not reach it; set LLMGW_MCP_ALLOW_PRIVATE=1/);
  });
});
