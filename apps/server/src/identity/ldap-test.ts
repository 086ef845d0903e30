// The Test action on People → Sign-in: binds to every server, then (through the first that bound)
// counts who the user filter finds and lists each mapped group's members, with warnings such as
// an in-chain query OpenLDAP does not understand. Every failure carries a code the console words
// with what to check; when no server could be used nothing else is tried, so the report never
// says "0 people found" about a directory it did not reach.
import type { Client } from "ldapts";
import type { LdapGroupMapping, LdapTestReport } from "@llmgw/api";
import { serviceRefusal } from "./ad-bind-codes";
import { first, type LdapDirectory } from "./ldap-directory";
import { classifyLdapFailure, describeLdapError } from "./ldap-failure";
import { escapeFilterValue, IN_CHAIN_RULE } from "./ldap-filters";

const TEST_SAMPLE = 100;

type Mapped = readonly { group: string; mapping: LdapGroupMapping }[];

/** Binds to each server in turn; answers the first bound client (the others are let go). */
async function bindEach(directory: LdapDirectory, report: LdapTestReport): Promise<Client | null> {
  let client: Client | null = null;
  for (const url of directory.settings.servers) {
    try {
      const c = await directory.connect(url);
      report.servers.push({ url, bound: true, error: null, failure: null });
      if (client) await c.unbind().catch(() => undefined);
      else client = c;
    } catch (error) {
      const { code } = classifyLdapFailure(error);
      report.servers.push({ url, bound: false, error: serviceRefusal(error), failure: code });
    }
  }
  return client;
}

export async function testLdapDirectory(
  directory: LdapDirectory,
  mappings: Mapped,
): Promise<LdapTestReport> {
  const report: LdapTestReport = {
    servers: [],
    users: [],
    userCount: null,
    userSearchFailure: null,
    userSearchError: null,
    groups: [],
    warnings: [],
  };
  const client = await bindEach(directory, report);
  if (!client) return report;
  try {
    await searchPeople(directory, client, report);
    for (const { group, mapping } of mappings)
      report.groups.push(await groupReport(directory, client, group, mapping));
    if (mappings.length === 0)
      report.warnings.push("no group is mapped to a role, so nobody can sign in yet");
    if (directory.settings.groupStrategy === "in-chain")
      await warnInChainBlind(directory, client, report);
  } finally {
    await client.unbind().catch(() => undefined);
  }
  return report;
}

function everyoneFilter(directory: LdapDirectory): string {
  return directory.settings.userFilter.split("{username}").join("*");
}

async function searchPeople(directory: LdapDirectory, client: Client, report: LdapTestReport) {
  const { nameAttribute: attribute, userBase } = directory.settings;
  const everyone = everyoneFilter(directory);
  try {
    const { searchEntries } = await client.search(userBase, {
      scope: "sub",
      filter: everyone,
      attributes: [attribute],
      paged: { pageSize: 500 },
    });
    report.userCount = searchEntries.length;
    report.users = searchEntries.slice(0, TEST_SAMPLE).map((e) => first(e[attribute]) ?? e.dn);
    if (searchEntries.length === 0)
      report.warnings.push(`the user filter ${everyone} finds nobody under ${userBase}`);
  } catch (error) {
    report.userSearchFailure = classifyLdapFailure(error).code;
    report.userSearchError = describeLdapError(error);
  }
}

async function warnInChainBlind(directory: LdapDirectory, client: Client, report: LdapTestReport) {
  const blind = report.groups.filter((g) => g.members.length === 0 && g.error === null);
  const viaMemberOf = await Promise.all(blind.map((g) => memberOfCount(directory, client, g.dn)));
  blind.forEach((g, i) => {
    if ((viaMemberOf[i] ?? 0) > 0)
      report.warnings.push(
        `the in-chain query (${IN_CHAIN_RULE}) found no members of ${g.dn}, but ${viaMemberOf[i]} ` +
          "people list it in memberOf: this server does not seem to support AD's in-chain " +
          "rule (OpenLDAP does not); use the memberOf strategy, or sign-in will be refused",
      );
  });
}

async function memberOfCount(directory: LdapDirectory, client: Client, groupDn: string) {
  try {
    const { searchEntries } = await client.search(directory.settings.userBase, {
      scope: "sub",
      filter: `(memberOf=${escapeFilterValue(groupDn)})`,
      attributes: ["dn"],
    });
    return searchEntries.length;
  } catch {
    return 0;
  }
}

async function groupReport(
  directory: LdapDirectory,
  client: Client,
  group: string,
  mapping: LdapGroupMapping,
): Promise<LdapTestReport["groups"][number]> {
  const base = { group, dn: mapping.dn, role: mapping.role, scope: mapping.scope };
  const { nameAttribute: attribute, groupStrategy, userBase } = directory.settings;
  const membership =
    groupStrategy === "in-chain"
      ? `(memberOf:${IN_CHAIN_RULE}:=${escapeFilterValue(mapping.dn)})`
      : `(memberOf=${escapeFilterValue(mapping.dn)})`;
  // Only people the user filter finds: on AD the nested groups themselves are members too.
  const filter = `(&${everyoneFilter(directory)}${membership})`;
  try {
    const { searchEntries } = await client.search(userBase, {
      scope: "sub",
      filter,
      attributes: [attribute],
      paged: { pageSize: 500 },
    });
    return {
      ...base,
      members: searchEntries.map((e) => first(e[attribute]) ?? e.dn).slice(0, TEST_SAMPLE),
      error: null,
      failure: null,
    };
  } catch (error) {
    const { code } = classifyLdapFailure(error);
    return { ...base, members: [], error: describeLdapError(error), failure: code };
  }
}
