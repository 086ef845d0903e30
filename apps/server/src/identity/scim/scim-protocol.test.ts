import { describe, expect, it } from "vitest";
import { asBoolean, memberFilterPath, parseFilter, parsePatch } from "./scim-protocol";
import { ScimError } from "../errors";

describe("SCIM protocol pieces", () => {
  it("reads eq filters with escaped quotes and refuses the rest", () => {
    expect(parseFilter('userName eq "ada@x"')).toEqual({ attribute: "username", value: "ada@x" });
    expect(parseFilter('displayName EQ "a \\"b\\""')).toEqual({
      attribute: "displayname",
      value: 'a "b"',
    });
    expect(parseFilter(null)).toBeNull();
    expect(() => parseFilter('userName sw "a"')).toThrow(/not supported/);
    expect(() => parseFilter('userName eq "a" or userName eq "b"')).toThrow(ScimError);
  });

  it("takes Entra's capitalised ops and refuses unknown ones", () => {
    expect(parsePatch({ Operations: [{ op: "Replace", value: { active: false } }] })).toEqual([
      { op: "replace", path: null, value: { active: false } },
    ]);
    expect(() => parsePatch({ Operations: [] })).toThrow(/at least one/);
    expect(() => parsePatch({ Operations: [{ op: "Move" }] })).toThrow(/Add, Replace or Remove/);
  });

  it("reads booleans sent as strings and member filter paths", () => {
    expect(asBoolean("False", "active")).toBe(false);
    expect(asBoolean("True", "active")).toBe(true);
    expect(() => asBoolean("no", "active")).toThrow(/true or false/);
    expect(memberFilterPath('members[value eq "abc"]')).toBe("abc");
    expect(memberFilterPath("members")).toBeNull();
  });
});
