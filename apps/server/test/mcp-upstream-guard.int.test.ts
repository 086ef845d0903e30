// The MCP client's way out, against a real upstream (server-everything behind the recording
// relay): every call goes through the guarded agent with the server's own headers, and an address
// the outbound guard refuses is never connected to, however it is disguised.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listUpstreamTools } from "../src/mcp/upstream";
import { startUpstream, type Upstream } from "./mcp-upstream";

describe("reaching an upstream MCP server through the outbound guard", () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => upstream?.stop());

  it("lists tools through the guarded agent, sending the server's headers", async () => {
    const tools = await listUpstreamTools({
      url: upstream.url("guarded"),
      headers: { Authorization: "Bearer sealed-upstream-token" },
      timeoutMs: 10_000,
      isPrivateAllowed: true,
    });
    expect(tools.map((tool) => tool.name)).toContain("echo");
    const seen = upstream.recorded.filter((r) => r.path.startsWith("/guarded/"));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((r) => r.headers.authorization === "Bearer sealed-upstream-token")).toBe(
      true,
    );
  });

  it("connects to nothing the guard refuses without LLMGW_MCP_ALLOW_PRIVATE", async () => {
    const port = new URL(upstream.url("x")).port;
    const before = upstream.recorded.length;
    for (const url of [
      upstream.url("plain"),
      `http://[::127.0.0.1]:${port}/disguised/mcp`,
      `http://[::ffff:127.0.0.1]:${port}/mapped/mcp`,
      `http://localhost:${port}/named/mcp`,
    ])
      await expect(
        listUpstreamTools({ url, headers: {}, timeoutMs: 5_000, isPrivateAllowed: false }),
        url,
      ).rejects.toThrow(/LLMGW_MCP_ALLOW_PRIVATE=1/);
    expect(upstream.recorded.length).toBe(before);
  });
});
