import { describe, expect, it } from "vitest";
import root from "../../../package.json" with { type: "json" };
import { LLMGW_VERSION, WORKSPACE_VERSION, isReleaseVersion } from "./version";

describe("LLMGW_VERSION", () => {
  it("is the root package.json's version, marked -dev when run from a checkout", () => {
    expect(WORKSPACE_VERSION).toBe(root.version);
    expect(LLMGW_VERSION).toBe(`${root.version}-dev`);
  });
});

describe("isReleaseVersion", () => {
  it("accepts x.y.z with an optional pre-release part", () => {
    for (const version of ["1.2.3", "0.1.0-dev", "10.0.1-rc.1", "2.0.0-beta-2"]) {
      expect(isReleaseVersion(version), version).toBe(true);
    }
  });

  it("refuses anything that could name another path or is not three numbers", () => {
    for (const version of ["1.2", "v1.2.3", "1.2.3/../x", "1.2.3-", "1.2.3-a/b", "../1.2.3", ""]) {
      expect(isReleaseVersion(version), version).toBe(false);
    }
  });
});
