import { describe, expect, it } from "vitest";
import { REDACTED, redact } from "./audit";

describe("redact", () => {
  it("replaces secret-looking fields at any depth and keeps the rest", () => {
    expect(
      redact({
        role: "viewer",
        password: "hunter22",
        clientSecret: "s3cret",
        nested: { bindPassword: "pw", servers: ["ldaps://dc1"], token: "t" },
        list: [{ apiKey: "k" }],
      }),
    ).toEqual({
      role: "viewer",
      password: REDACTED,
      clientSecret: REDACTED,
      nested: { bindPassword: REDACTED, servers: ["ldaps://dc1"], token: REDACTED },
      list: [{ apiKey: REDACTED }],
    });
  });

  it("says plainly when no secret was given", () => {
    expect(redact({ password: null, clientSecret: "" })).toEqual({
      password: null,
      clientSecret: "",
    });
  });
});
