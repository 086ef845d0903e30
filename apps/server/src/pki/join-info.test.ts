import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { joinInfoOf } from "./join-info";

describe("joinInfoOf", () => {
  it("offers the configured names and addresses first, then the bound address, brackets for IPv6", () => {
    const info = joinInfoOf({
      agentHost: "10.0.0.5",
      agentTls: { names: ["gw.example"], addresses: ["fd00::1", "10.0.0.5"] },
      caSha256: "ab",
      agentPort: () => 8443,
    });
    expect(info).toEqual({
      agentUrls: ["wss://gw.example:8443", "wss://[fd00::1]:8443", "wss://10.0.0.5:8443"],
      caSha256: "ab",
    });
  });

  it("names the host when the port listens on every address", () => {
    const info = joinInfoOf({
      agentHost: "0.0.0.0",
      agentTls: { names: [], addresses: [] },
      caSha256: "ab",
      agentPort: () => 8081,
    });
    expect(info.agentUrls).toEqual([`wss://${hostname()}:8081`]);
  });
});
