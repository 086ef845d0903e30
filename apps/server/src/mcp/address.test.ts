import { describe, expect, it } from "vitest";
import { checkMcpAddress } from "./address";

describe("checkMcpAddress", () => {
  it("accepts a public https address", () => {
    expect(checkMcpAddress("https://mcp.example.com/mcp", false).hostname).toBe("mcp.example.com");
  });

  it("refuses a user and password in the address, even where private ones are allowed", () => {
    expect(() => checkMcpAddress("https://bob:hunter2@mcp.example.com/mcp", true)).toThrow(
      /user and password.*header/,
    );
    // The refusal does not repeat the password.
    expect(() => checkMcpAddress("https://bob:hunter2@mcp.example.com/mcp", true)).not.toThrow(
      /hunter2/,
    );
  });

  it("refuses private, loopback and link-local addresses unless allowed", () => {
    for (const url of [
      "http://127.0.0.1:3001/mcp",
      "http://localhost/mcp",
      "http://10.1.2.3/mcp",
      "http://192.168.0.5/mcp",
      "http://[::1]/mcp",
      "http://[::ffff:127.0.0.1]/mcp",
    ]) {
      expect(() => checkMcpAddress(url, false), url).toThrow(/LLMGW_MCP_ALLOW_PRIVATE/);
      expect(checkMcpAddress(url, true).href).toBeTruthy();
    }
  });

  // The forms the old MCP guard let through: its own list of ranges missed them.
  it.each([
    ["http://[::127.0.0.1]/mcp", /IPv4-compatible address hiding 127\.0\.0\.1/],
    ["http://[::169.254.169.254]/mcp", /hiding 169\.254\.169\.254/],
    ["http://[::ffff:0:127.0.0.1]/mcp", /IPv4-translated address hiding 127\.0\.0\.1/],
    ["http://[64:ff9b::127.0.0.1]/mcp", /NAT64\) address hiding 127\.0\.0\.1/],
    ["http://192.0.2.1/mcp", /TEST-NET/],
    ["http://198.51.100.1/mcp", /TEST-NET/],
    ["http://203.0.113.1/mcp", /TEST-NET/],
  ])("refuses the disguised %s unless private addresses are allowed", (url, why) => {
    expect(() => checkMcpAddress(url, false)).toThrow(why);
    expect(() => checkMcpAddress(url, false)).toThrow(/LLMGW_MCP_ALLOW_PRIVATE=1/);
  });

  it("refuses cloud metadata services even where private addresses are allowed", () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data",
      "http://metadata.google.internal/",
      "http://[fd00:ec2::254]/",
      "http://[::ffff:169.254.169.254]/",
      "http://[::169.254.169.254]/",
    ])
      expect(() => checkMcpAddress(url, true), url).toThrow(/metadata/);
  });

  it("refuses other schemes and non-URLs", () => {
    expect(() => checkMcpAddress("file:///etc/passwd", true)).toThrow(/only http/);
    expect(() => checkMcpAddress("mcp.example.com", true)).toThrow(/not a URL/);
  });
});
