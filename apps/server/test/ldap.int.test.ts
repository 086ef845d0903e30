// Sign-in with Active Directory over LDAP against a real OpenLDAP slapd (Debian's), reached over
// LDAPS and StartTLS with a CA made for the test: names of the sAMAccountName kind (uid) and the
// UPN kind (mail), wrong and empty passwords, filter injection, nested groups mapped to roles,
// AD's in-chain rule (which OpenLDAP does not know) refused by name, failover past a dead server,
// plain LDAP only when allowed, and the bind password never shown, logged or audited.
import { Client } from "ldapts";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, signInDirectory, startSlapd, type SlapdServer } from "@llmgw/testing";
import type { LdapSettingsInput } from "@llmgw/api";
import { LdapDirectory } from "../src/identity/ldap-directory";
import { escapeFilterValue } from "../src/identity/ldap-filters";
import { must } from "@llmgw/domain";
import {
  apiClient,
  codeOf,
  rejectionOf,
  startFleet,
  type Api,
  type Fleet,
  type ServerHandle,
} from "./harness";

// ada is in ml-engineers, which is inside gpu-operators (mapped to operator): nested.
// carol is directly in viewers; bob is in a group nobody mapped.
const {
  bindPassword: BIND_PASSWORD,
  ldif: LDIF,
  operatorsDn: OPERATORS,
  suffix: SUFFIX,
  viewersDn: VIEWERS,
} = signInDirectory;

const bindsOf = (log: string, dn: string) =>
  log.split("\n").filter((l) => l.includes(`BIND dn="${dn}"`)).length;

describe("sign-in with Active Directory (LDAP) against slapd", () => {
  let slapd: SlapdServer;
  let fleet: Fleet;
  let server: ServerHandle;
  let admin: Api;
  let deadUrl: string;
  let settings: LdapSettingsInput;

  const login = (username: string, password: string) =>
    apiClient(server.apiUrl, null).auth.login.mutate({ username, password });

  beforeAll(async () => {
    slapd = await startSlapd({ ldif: LDIF, suffix: SUFFIX });
    fleet = await startFleet();
    ({ server, api: admin } = fleet);
    // A port nobody listens on: the first server is unreachable, so every sign-in fails over.
    deadUrl = `ldaps://127.0.0.1:${await freePort()}`;
    settings = {
      enabled: true,
      servers: [deadUrl, slapd.ldapsUrl],
      startTls: false,
      caPem: slapd.caPem,
      allowInsecure: false,
      bindDn: `cn=llmgw-reader,${SUFFIX}`,
      bindPassword: BIND_PASSWORD,
      userBase: `ou=people,${SUFFIX}`,
      userFilter: "(&(objectClass=inetOrgPerson)(uid={username}))",
      upnFilter: "(&(objectClass=inetOrgPerson)(mail={username}))",
      nameAttribute: "uid",
      groupBase: `ou=groups,${SUFFIX}`,
      groupStrategy: "member-of",
      groupMappings: [
        { dn: OPERATORS, role: "operator", scope: "*" },
        { dn: VIEWERS, role: "viewer", scope: "*" },
      ],
    };
    await admin.signIn.setLdap.mutate(settings);
  });

  afterAll(async () => {
    await fleet?.stop();
    await slapd?.stop();
  });

  it("signs in by uid over LDAPS past an unreachable first server; the nested group grants operator", async () => {
    const result = await login("ada", "ada-pw");
    expect(result.user.username).toBe("ada");
    expect(result.user.source).toBe("ldap");
    expect(result.user.displayName).toBe("Ada Example");
    expect(result.user.role).toBe("operator");
    const me = apiClient(server.apiUrl, result.token);
    expect((await me.auth.me.query()).role).toBe("operator");
    const groups = await admin.groups.list.query();
    const operators = groups.find((g) => g.externalId === OPERATORS);
    expect(operators?.name).toBe("ad:gpu-operators");
    expect(operators?.members).toContain("ada");
  });

  it("signs in by UPN (mail) as the same person", async () => {
    const result = await login("ada@example.test", "ada-pw");
    expect(result.user.username).toBe("ada");
    const people = await admin.people.list.query();
    expect(people.filter((p) => p.username === "ada")).toHaveLength(1);
  });

  it("refuses a wrong password as wrong credentials", async () => {
    expect(await codeOf(login("ada", "not-ada-pw"))).toBe("UNAUTHORIZED");
    expect(await codeOf(login("nobody", "whatever"))).toBe("UNAUTHORIZED");
  });

  it("refuses an empty password before any bind (slapd would take it as anonymous)", async () => {
    const adaDn = `uid=ada,ou=people,${SUFFIX}`;
    // What the refusal prevents: slapd answers an empty-password bind with success.
    const raw = new Client({ url: slapd.ldapsUrl, tlsOptions: { ca: [slapd.caPem] } });
    await raw.bind(adaDn, "");
    await raw.unbind();
    expect(bindsOf(slapd.log(), adaDn)).toBeGreaterThan(0);

    expect(await codeOf(login("ada", ""))).toBe("BAD_REQUEST");
    const before = bindsOf(slapd.log(), adaDn);
    const serviceBefore = bindsOf(slapd.log(), settings.bindDn);
    const { bindPassword, ...stored } = settings;
    const directory = new LdapDirectory(stored, must(bindPassword, "the bind password"));
    expect(await rejectionOf(directory.authenticate("ada", ""))).toMatch(/empty password/);
    await new Promise((r) => setTimeout(r, 200));
    expect(bindsOf(slapd.log(), adaDn)).toBe(before);
    expect(bindsOf(slapd.log(), settings.bindDn)).toBe(serviceBefore);
  });

  it("escapes the typed name in the filter, so *)(uid=* finds nobody", async () => {
    expect(escapeFilterValue("*)(uid=*")).toBe("\\2a\\29\\28uid=\\2a");
    expect(await codeOf(login("*)(uid=*", "ada-pw"))).toBe("UNAUTHORIZED");
    expect(await codeOf(login("ad*", "ada-pw"))).toBe("UNAUTHORIZED");
    expect(await codeOf(login("*", "ada-pw"))).toBe("UNAUTHORIZED");
    // slapd logs the filter it got: the wildcard and parentheses arrived as escaped values.
    expect(slapd.log()).toMatch(
      /filter="\(&\(objectClass=inetOrgPerson\)\(uid=\\2A\\29\\28uid=\\2A\)\)"/i,
    );
  });

  it("refuses someone in no mapped group, saying so", async () => {
    const message = await rejectionOf(login("bob", "bob-pw"));
    expect(message).toMatch(/bob is in no directory group mapped to a role/);
    expect(await codeOf(login("bob", "bob-pw"))).toBe("FORBIDDEN");
    const people = await admin.people.list.query();
    expect(people.some((p) => p.username === "bob")).toBe(false);
  });

  it("the Test action reports each server, who may sign in and each mapped group's members", async () => {
    const report = await admin.signIn.testLdap.mutate();
    expect(report.servers).toEqual([
      {
        url: deadUrl,
        bound: false,
        error: expect.stringMatching(/ECONNREFUSED|connect/i),
        failure: "connection-refused",
      },
      { url: slapd.ldapsUrl, bound: true, error: null, failure: null },
    ]);
    expect(report.userSearchFailure).toBeNull();
    expect(report.users.sort()).toEqual(["ada", "bob", "carol"]);
    expect(report.userCount).toBe(3);
    const byDn = Object.fromEntries(report.groups.map((g) => [g.dn, g]));
    expect(byDn[OPERATORS]?.members).toEqual(["ada"]);
    expect(byDn[OPERATORS]?.role).toBe("operator");
    expect(byDn[VIEWERS]?.members).toEqual(["carol"]);
    expect(report.warnings).toEqual([]);
  });

  it("in-chain against OpenLDAP finds nothing: Test warns and sign-in is refused naming the strategy", async () => {
    await admin.signIn.setLdap.mutate({
      ...settings,
      bindPassword: undefined,
      groupStrategy: "in-chain",
    });
    const report = await admin.signIn.testLdap.mutate();
    const operators = report.groups.find((g) => g.dn === OPERATORS);
    expect(operators?.members).toEqual([]);
    expect(report.warnings.join("\n")).toMatch(
      /in-chain query \(1\.2\.840\.113556\.1\.4\.1941\) found no members of cn=gpu-operators/,
    );
    const message = await rejectionOf(login("carol", "carol-pw"));
    expect(message).toMatch(/in-chain group query .* found no groups for carol/);
    expect(message).toMatch(/memberOf/);
    expect(await codeOf(login("ada", "ada-pw"))).toBe("FORBIDDEN");
    // bob is in an unmapped group: still refused (never granted by accident either way).
    expect(await codeOf(login("bob", "bob-pw"))).toBe("FORBIDDEN");
    await admin.signIn.setLdap.mutate({ ...settings, bindPassword: undefined });
    expect((await login("carol", "carol-pw")).user.role).toBe("viewer");
  });

  it("StartTLS with the CA signs in; without the CA the certificate is refused", async () => {
    await admin.signIn.setLdap.mutate({
      ...settings,
      bindPassword: undefined,
      servers: [slapd.ldapUrl],
      startTls: true,
    });
    expect((await login("ada", "ada-pw")).user.role).toBe("operator");
    expect(slapd.log()).toMatch(/EXT oid=1\.3\.6\.1\.4\.1\.1466\.20037/);
    await admin.signIn.setLdap.mutate({
      ...settings,
      bindPassword: undefined,
      servers: [slapd.ldapUrl],
      startTls: true,
      caPem: "",
    });
    // The person is told only that sign-in is unavailable; the reason is in the server log.
    expect(await codeOf(login("ada", "ada-pw"))).toBe("PRECONDITION_FAILED");
    expect(server.process.output()).toMatch(
      /ldap:\/\/127\.0\.0\.1:\d+: tls-untrusted: .*certificate/i,
    );
    await admin.signIn.setLdap.mutate({ ...settings, bindPassword: undefined });
  });

  it("refuses plain ldap:// unless insecure is allowed explicitly", async () => {
    const plain = { ...settings, bindPassword: undefined, servers: [slapd.ldapUrl] };
    const refused = await rejectionOf(admin.signIn.setLdap.mutate(plain));
    expect(refused).toMatch(/ldap:\/\/ sends passwords in the clear/);
    await admin.signIn.setLdap.mutate({ ...plain, allowInsecure: true });
    expect((await login("ada", "ada-pw")).user.role).toBe("operator");
    await admin.signIn.setLdap.mutate({ ...settings, bindPassword: undefined });
  });

  it("never shows, logs or audits the bind password", async () => {
    const view = await admin.signIn.settings.query();
    expect(view.ldap?.hasBindPassword).toBe(true);
    expect(view.ldap?.groupMappings).toHaveLength(2);
    expect(JSON.stringify(view)).not.toContain(BIND_PASSWORD);
    const audit = await admin.audit.list.query({ limit: 500 });
    const ldapRows = audit.filter((row) => row.action === "setting.ldap");
    expect(ldapRows.length).toBeGreaterThan(3);
    expect(JSON.stringify(ldapRows[ldapRows.length - 1])).toContain("[redacted]");
    expect(JSON.stringify(audit)).not.toContain(BIND_PASSWORD);
    expect(audit.some((row) => row.action === "sign-in.ldap")).toBe(true);
    expect(server.process.output()).not.toContain(BIND_PASSWORD);
    // Nor the people's own passwords.
    expect(server.process.output()).not.toContain("ada-pw");
    expect(JSON.stringify(audit)).not.toContain("ada-pw");
    // Someone not signed in cannot change it, and the refusal does not echo what was sent.
    const first = await rejectionOf(apiClient(server.apiUrl, null).signIn.setLdap.mutate(settings));
    expect(first).not.toContain(BIND_PASSWORD);
  });

  it("Test tries the form's values, unsaved, with the stored bind password when left blank", async () => {
    const before = await admin.signIn.settings.query();
    const report = await admin.signIn.testLdapForm.mutate({
      ...settings,
      bindPassword: undefined,
      servers: [slapd.ldapsUrl],
      userBase: `ou=nowhere,${SUFFIX}`,
    });
    expect(report.servers).toEqual([
      { url: slapd.ldapsUrl, bound: true, error: null, failure: null },
    ]);
    expect(report.userSearchFailure).toBe("base-not-found");
    expect(report.userCount).toBeNull();
    // Nothing was stored: the saved settings still name both servers and the real base.
    expect(await admin.signIn.settings.query()).toEqual(before);
    const wrong = await admin.signIn.testLdapForm.mutate({ ...settings, bindPassword: "not-it" });
    expect(wrong.servers.map((s) => s.failure)).toEqual(["connection-refused", "bind-refused"]);
    expect(JSON.stringify(wrong)).not.toContain(BIND_PASSWORD);
  });

  it("Test of an unreachable directory names the failure and says nothing about people", async () => {
    const report = await admin.signIn.testLdapForm.mutate({
      ...settings,
      bindPassword: undefined,
      servers: [deadUrl, "ldaps://dc1.no-such-domain.invalid:636"],
    });
    expect(report.servers.map((s) => [s.bound, s.failure])).toEqual([
      [false, "connection-refused"],
      [false, "dns-not-found"],
    ]);
    expect(report.userCount).toBeNull();
    expect(report.users).toEqual([]);
    expect(report.groups).toEqual([]);
  });

  it("an anonymous sign-in with an unknown name while the directory is down reveals no address", async () => {
    const hidden = "dc1.no-such-domain.invalid";
    await admin.signIn.setLdap.mutate({
      ...settings,
      bindPassword: undefined,
      servers: [deadUrl, `ldaps://${hidden}:636`],
    });
    try {
      let answer: unknown = null;
      try {
        await login("mallory-probe", "guess");
      } catch (error) {
        answer = error;
      }
      expect(answer).toBeInstanceOf(TRPCClientError);
      const error = answer as { message: string; data: { code?: string } };
      expect(error.data.code).toBe("PRECONDITION_FAILED");
      expect(error.message).toMatch(/sign-in is unavailable right now/);
      const shown = JSON.stringify({ message: error.message, data: error.data });
      for (const leak of [hidden, "127.0.0.1", new URL(deadUrl.replace("ldaps", "http")).port])
        expect(shown).not.toContain(leak);
      expect(shown).not.toMatch(/ENOTFOUND|ECONNREFUSED|EAI_AGAIN|ldaps?:/);
      // The admin finds the reason in the server log.
      expect(server.process.output()).toMatch(
        new RegExp(`ldaps://${hidden.replace(/\./g, "\\.")}:636: dns-not-found`),
      );
    } finally {
      await admin.signIn.setLdap.mutate({ ...settings, bindPassword: undefined });
    }
  });

  it("turning Active Directory off stops AD sign-in and keeps the settings; on again, it works", async () => {
    await admin.signIn.setLdap.mutate({ ...settings, bindPassword: undefined, enabled: false });
    try {
      const anonymous = apiClient(server.apiUrl, null);
      expect((await anonymous.signIn.methods.query()).ldap).toBe(false);
      expect(await codeOf(login("ada", "ada-pw"))).toBe("UNAUTHORIZED");
      const view = await admin.signIn.settings.query();
      expect(view.ldap?.enabled).toBe(false);
      expect(view.ldap?.servers).toEqual(settings.servers);
      expect(view.ldap?.hasBindPassword).toBe(true);
    } finally {
      await admin.signIn.setLdap.mutate({ ...settings, bindPassword: undefined });
    }
    expect((await login("ada", "ada-pw")).user.role).toBe("operator");
  });
});
