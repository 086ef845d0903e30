import { describe, expect, it } from "vitest";
import { checkMcpAddress, isPrivateAddress } from "./address";

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

  it("refuses private, loopback, link-local and metadata addresses unless allowed", () => {
    for (const url of [
      "http://127.0.0.1:3001/mcp",
      "http://localhost/mcp",
      "http://10.1.2.3/mcp",
      "http://192.168.0.5/mcp",
      "http://169.254.169.254/latest/meta-data",
      "http://metadata.google.internal/",
      "http://[::1]/mcp",
      "http://[fd00:ec2::254]/",
      "http://[::ffff:127.0.0.1]/mcp",
    ]) {
      expect(() => checkMcpAddress(url, false), url).toThrow(/LLMGW_MCP_ALLOW_PRIVATE/);
      expect(checkMcpAddress(url, true).href).toBeTruthy();
    }
  });

  it("refuses other schemes and non-URLs", () => {
    expect(() => checkMcpAddress("file:///etc/passwd", true)).toThrow(/only http/);
    expect(() => checkMcpAddress("mcp.example.com", true)).toThrow(/not a URL/);
  });
});

describe("isPrivateAddress", () => {
  it("tells public from private", () => {
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("2606:4700::1111")).toBe(false);
    expect(isPrivateAddress("172.20.0.1")).toBe(true);
    expect(isPrivateAddress("fe80::1")).toBe(true);
  });
});
