import { describe, expect, it } from "vitest";
import { browserOrigin, publicAddresses } from "./addresses";

function request(url: string, headers: Record<string, string> = {}): Request {
  return new Request(url, { headers });
}

describe("publicAddresses", () => {
  it("shows the control plane on the host the browser used when it listens on the loopback", () => {
    const seen = publicAddresses(request("http://gpu-head.lan:3000/api/addresses"), {
      apiUrl: "http://127.0.0.1:8080",
    });
    expect(seen).toEqual({
      consoleUrl: "http://gpu-head.lan:3000",
      apiUrl: "http://gpu-head.lan:8080",
    });
  });

  it("keeps a control plane that has a real address, and the loopback for a local browser", () => {
    expect(
      publicAddresses(request("http://gpu-head.lan:3000/"), { apiUrl: "http://10.0.0.5:8080" })
        .apiUrl,
    ).toBe("http://10.0.0.5:8080");
    expect(
      publicAddresses(request("http://127.0.0.1:3000/"), { apiUrl: "http://127.0.0.1:8080" }),
    ).toEqual({ consoleUrl: "http://127.0.0.1:3000", apiUrl: "http://127.0.0.1:8080" });
  });

  it("prefers LLMGW_PUBLIC_API_URL over any guess", () => {
    const seen = publicAddresses(request("http://gpu-head.lan:3000/"), {
      apiUrl: "http://127.0.0.1:8080",
      publicApiUrl: "https://llm.corp.example",
    });
    expect(seen.apiUrl).toBe("https://llm.corp.example");
  });
});

describe("browserOrigin", () => {
  it("follows the reverse proxy's forwarded scheme and host", () => {
    const behindProxy = request("http://127.0.0.1:3000/api/addresses", {
      "x-forwarded-proto": "https",
      "x-forwarded-host": "console.corp.example, 10.0.0.1",
    });
    expect(browserOrigin(behindProxy)).toBe("https://console.corp.example");
  });
});
