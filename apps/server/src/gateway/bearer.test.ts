// What /v1 makes of the Authorization header: a key, nothing, or something malformed said so.
import { describe, expect, it } from "vitest";
import { bearerKeyOf } from "./bearer";

describe("bearerKeyOf", () => {
  it("reads the key after Bearer, in any case, with surrounding spaces", () => {
    expect(bearerKeyOf("Bearer llmgw_abc")).toEqual({ ok: true, key: "llmgw_abc" });
    expect(bearerKeyOf("  bearer   llmgw_abc  ")).toEqual({ ok: true, key: "llmgw_abc" });
    expect(bearerKeyOf("Bearer\tllmgw_abc")).toEqual({ ok: true, key: "llmgw_abc" });
  });

  it("calls an absent or empty header a missing key", () => {
    expect(bearerKeyOf(undefined)).toMatchObject({ ok: false, code: "missing_api_key" });
    expect(bearerKeyOf("  ")).toMatchObject({ ok: false, code: "missing_api_key" });
  });

  it("calls `Bearer KEY junk`, another scheme, or a bare Bearer malformed, not missing", () => {
    const junk = bearerKeyOf("Bearer llmgw_abc junk");
    expect(junk).toMatchObject({ ok: false, code: "malformed_authorization" });
    expect(junk.ok ? "" : junk.why).toMatch(/2 words after Bearer; send the key alone/);
    expect(bearerKeyOf("Basic YWRtaW46cHc=")).toMatchObject({
      ok: false,
      code: "malformed_authorization",
      why: expect.stringMatching(/scheme "Basic"/),
    });
    expect(bearerKeyOf("Bearer")).toMatchObject({ ok: false, code: "malformed_authorization" });
    expect(bearerKeyOf("Bearer ")).toMatchObject({ ok: false, code: "malformed_authorization" });
    expect(bearerKeyOf("Bearer a\nb")).toMatchObject({
      ok: false,
      code: "malformed_authorization",
    });
  });
});
