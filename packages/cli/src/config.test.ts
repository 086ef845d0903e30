import { afterEach, describe, expect, it, vi } from "vitest";
import { ctlEnv } from "./config";

afterEach(() => vi.unstubAllEnvs());

describe("ctlEnv", () => {
  it("reads LLMGW_SERVER and LLMGW_TOKEN, and takes an empty one as unset", () => {
    vi.stubEnv("LLMGW_SERVER", "http://cp:8080");
    vi.stubEnv("LLMGW_TOKEN", "t0ken");
    expect(ctlEnv()).toMatchObject({ server: "http://cp:8080", token: "t0ken" });
    // `LLMGW_TOKEN= llmgw ctl whoami` must fall back to the saved login, not send no token.
    vi.stubEnv("LLMGW_SERVER", "");
    vi.stubEnv("LLMGW_TOKEN", "");
    expect(ctlEnv()).toMatchObject({ server: undefined, token: undefined });
  });
});
