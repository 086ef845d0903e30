// LDAP filter building and DN comparison for Active Directory sign-in: values typed by a person
// are escaped per RFC 4515 before they enter a filter, the filter for a name is chosen by its kind
// (UPN or sAMAccountName), and DNs from different sources compare as the directory would.

/** AD's LDAP_MATCHING_RULE_IN_CHAIN: membership through nested groups. */
export const IN_CHAIN_RULE = "1.2.840.113556.1.4.1941";

/** RFC 4515: a value inside a filter; `*`, `(`, `)`, `\` and NUL lose their meaning. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** The filter for a typed name: the UPN kind when it has `@`, the sAMAccountName kind otherwise. */
export function userFilterFor(
  settings: { userFilter: string; upnFilter: string },
  username: string,
): string {
  const template = username.includes("@") ? settings.upnFilter : settings.userFilter;
  return template.split("{username}").join(escapeFilterValue(username));
}

/** DNs compare case-insensitively and without spaces after commas. */
export function normaliseDn(dn: string): string {
  return dn
    .split(",")
    .map((part) => part.trim())
    .join(",")
    .toLowerCase();
}
