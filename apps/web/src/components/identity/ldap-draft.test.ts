import { describe, expect, it } from "vitest";
import { draftFromSettings, ldapInput } from "./ldap-draft";

describe("ldapInput", () => {
  it("splits the servers box and leaves out an empty group base and password", () => {
    const draft = { ...draftFromSettings(null), servers: " ldaps://a:636\nldaps://b:636  " };
    const input = ldapInput(draft);
    expect(input.servers).toEqual(["ldaps://a:636", "ldaps://b:636"]);
    expect(input).not.toHaveProperty("groupBase");
    expect(input).not.toHaveProperty("bindPassword");
    expect(input.userFilter).toBe("(&(objectClass=user)(sAMAccountName={username}))");
  });

  it("sends a typed password and group base", () => {
    const draft = { ...draftFromSettings(null), bindPassword: "s3cret", groupBase: "OU=g" };
    expect(ldapInput(draft)).toMatchObject({ bindPassword: "s3cret", groupBase: "OU=g" });
  });
});
