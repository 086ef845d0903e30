// The filter building of the LDAP sign-in, which needs no directory: RFC 4515 escaping, the
// filter chosen for a name, and DN comparison.
import { describe, expect, it } from "vitest";
import { escapeFilterValue, normaliseDn, userFilterFor } from "./ldap-filters";
import type { LdapSettings } from "./sign-in-settings";

const settings = {
  userFilter: "(&(objectClass=user)(sAMAccountName={username}))",
  upnFilter: "(&(objectClass=user)(userPrincipalName={username}))",
} as LdapSettings;

describe("LDAP filters", () => {
  it("escapes every character with a meaning in a filter value", () => {
    expect(escapeFilterValue("*)(uid=*")).toBe("\\2a\\29\\28uid=\\2a");
    expect(escapeFilterValue("a\\b\0c")).toBe("a\\5cb\\00c");
    expect(escapeFilterValue("plain.name-1")).toBe("plain.name-1");
  });

  it("uses the UPN filter for names with @ and the sAMAccountName filter otherwise", () => {
    expect(userFilterFor(settings, "ada")).toBe("(&(objectClass=user)(sAMAccountName=ada))");
    expect(userFilterFor(settings, "ada@corp.example")).toBe(
      "(&(objectClass=user)(userPrincipalName=ada@corp.example))",
    );
    expect(userFilterFor(settings, "x)(|(sAMAccountName=*")).toBe(
      "(&(objectClass=user)(sAMAccountName=x\\29\\28|\\28sAMAccountName=\\2a))",
    );
  });

  it("compares DNs without case or spaces after commas", () => {
    expect(normaliseDn("CN=GPU Ops, OU=Groups,DC=Corp")).toBe("cn=gpu ops,ou=groups,dc=corp");
  });
});
