import { describe, expect, it } from "vitest";
import root from "../../../package.json" with { type: "json" };
import { LLMGW_VERSION, WORKSPACE_VERSION } from "./version";

describe("LLMGW_VERSION", () => {
  it("is the root package.json's version, marked -dev when run from a checkout", () => {
    expect(WORKSPACE_VERSION).toBe(root.version);
    expect(LLMGW_VERSION).toBe(`${root.version}-dev`);
  });
});
