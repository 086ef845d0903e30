import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExternalAgent, readKeyFile } from "./external";

describe("the external agent's connect-time guard", () => {
  const server = createServer((_req, res) => res.end("ok"));
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("refuses a name that resolves to a loopback address, naming the name and the address", async () => {
    const agent = createExternalAgent(false);
    await expect(request(`http://localhost:${port}/`, { dispatcher: agent })).rejects.toThrow(
      /localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
    await agent.close();
  });

  it("connects when private upstreams are allowed", async () => {
    const agent = createExternalAgent(true);
    const answer = await request(`http://localhost:${port}/`, { dispatcher: agent });
    expect(await answer.body.text()).toBe("ok");
    await agent.close();
  });
});

describe("readKeyFile", () => {
  it("reads the key without surrounding whitespace, and null for a missing or empty file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "llmgw-keys-"));
    await writeFile(join(dir, "k"), "  sk-abc \n");
    await writeFile(join(dir, "empty"), "\n");
    expect(await readKeyFile(join(dir, "k"))).toBe("sk-abc");
    expect(await readKeyFile(join(dir, "empty"))).toBeNull();
    expect(await readKeyFile(join(dir, "missing"))).toBeNull();
  });
});
