// The LDIF the slapd tests load: each entry as slapadd reads it, parents and members first.
import { describe, expect, it } from "vitest";
import { consoleDirectory, groupDn, personDn, signInDirectory } from "./ldap-directory-data.ts";

const entries = (ldif: string) => ldif.trim().split("\n\n");
const dnOf = (entry: string) => /^dn: (.*)$/m.exec(entry)?.[1];

describe("directory test data", () => {
  it("writes people, the service account and nested groups as LDIF entries", () => {
    const all = entries(signInDirectory.ldif);
    expect(all).toContain(
      [
        "dn: uid=ada,ou=people,dc=example,dc=test",
        "objectClass: inetOrgPerson",
        "uid: ada",
        "cn: ada Example",
        "sn: Example",
        "displayName: Ada Example",
        "mail: ada@example.test",
        "userPassword: ada-pw",
      ].join("\n"),
    );
    expect(all).toContain(
      [
        `dn: ${signInDirectory.operatorsDn}`,
        "objectClass: groupOfNames",
        "cn: gpu-operators",
        `member: ${groupDn("ml-engineers")}`,
      ].join("\n"),
    );
    expect(all.find((e) => dnOf(e) === signInDirectory.bindDn)).toContain(
      `userPassword: ${signInDirectory.bindPassword}`,
    );
  });

  it("defines every entry before a group names it as a member", () => {
    for (const directory of [signInDirectory, consoleDirectory]) {
      const seen = new Set<string>();
      for (const entry of entries(directory.ldif)) {
        for (const [, member] of entry.matchAll(/^member: (.*)$/gm)) expect(seen).toContain(member);
        seen.add(dnOf(entry) ?? "");
      }
      expect(seen).toContain(personDn(directory === signInDirectory ? "carol" : "linus"));
    }
  });
});
