import { describe, expect, it } from "vitest";
import { readServerConfig } from "./server-config";

describe("readServerConfig", () => {
  it("defaults to the local control plane", () => {
    expect(readServerConfig({})).toEqual({ apiUrl: "http://127.0.0.1:8080" });
    expect(readServerConfig({ LLMGW_API_URL: "  " })).toEqual({ apiUrl: "http://127.0.0.1:8080" });
  });

  it("takes LLMGW_API_URL without a trailing slash", () => {
    expect(readServerConfig({ LLMGW_API_URL: "https://cp.example:9443/" })).toEqual({
      apiUrl: "https://cp.example:9443",
    });
  });

  it("names the setting when the value is unusable", () => {
    expect(() => readServerConfig({ LLMGW_API_URL: "cp.example:8080" })).toThrow(
      /LLMGW_API_URL="cp.example:8080"/,
    );
    expect(() => readServerConfig({ LLMGW_API_URL: "ws://cp.example" })).toThrow(
      /http:\/\/ or https:\/\//,
    );
  });

  it("takes the address clients outside use from LLMGW_PUBLIC_API_URL", () => {
    expect(
      readServerConfig({
        LLMGW_API_URL: "http://127.0.0.1:8080",
        LLMGW_PUBLIC_API_URL: "https://llm.corp.example/",
      }),
    ).toEqual({ apiUrl: "http://127.0.0.1:8080", publicApiUrl: "https://llm.corp.example" });
    expect(() => readServerConfig({ LLMGW_PUBLIC_API_URL: "llm.corp.example" })).toThrow(
      /LLMGW_PUBLIC_API_URL="llm.corp.example"/,
    );
  });
});
