// The directory entries the OpenLDAP (slapd) tests load, as LDIF built from people and groups:
// the service account llmgw binds as, people under ou=people and groupOfNames under ou=groups,
// where a group's member may be another group (slapd's dynlist follows it for memberOf).
// `signInDirectory` serves the server's integration tests, `consoleDirectory` the browser tests.

export interface DirectoryTestPerson {
  uid: string;
  cn: string;
  sn: string;
  displayName: string;
  mail: string;
  password: string;
}

export interface DirectoryTestGroup {
  cn: string;
  /** DNs of people or of other groups (nested). */
  members: readonly string[];
}

export interface DirectoryTestData {
  suffix: string;
  /** The service account llmgw binds as, and its password. */
  bindDn: string;
  bindPassword: string;
  userBase: string;
  groupBase: string;
  /** The entries below the suffix, for `startSlapd({ ldif, suffix })`. */
  ldif: string;
}

const SUFFIX = "dc=example,dc=test";

export const personDn = (uid: string, suffix = SUFFIX) => `uid=${uid},ou=people,${suffix}`;
export const groupDn = (cn: string, suffix = SUFFIX) => `cn=${cn},ou=groups,${suffix}`;

function personEntry(person: DirectoryTestPerson, suffix: string): string {
  return [
    `dn: ${personDn(person.uid, suffix)}`,
    "objectClass: inetOrgPerson",
    `uid: ${person.uid}`,
    `cn: ${person.cn}`,
    `sn: ${person.sn}`,
    `displayName: ${person.displayName}`,
    `mail: ${person.mail}`,
    `userPassword: ${person.password}`,
  ].join("\n");
}

function groupEntry(group: DirectoryTestGroup, suffix: string): string {
  return [
    `dn: ${groupDn(group.cn, suffix)}`,
    "objectClass: groupOfNames",
    `cn: ${group.cn}`,
    ...group.members.map((member) => `member: ${member}`),
  ].join("\n");
}

/** The directory's data; groups come after the people and groups they hold, as slapadd wants. */
export function directoryTestData(options: {
  bindPassword: string;
  people: readonly DirectoryTestPerson[];
  groups: readonly DirectoryTestGroup[];
  suffix?: string;
}): DirectoryTestData {
  const suffix = options.suffix ?? SUFFIX;
  const bindDn = `cn=llmgw-reader,${suffix}`;
  const entries = [
    `dn: ou=people,${suffix}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${suffix}\nobjectClass: organizationalUnit\nou: groups`,
    `dn: ${bindDn}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\n` +
      `cn: llmgw-reader\nuserPassword: ${options.bindPassword}`,
    ...options.people.map((person) => personEntry(person, suffix)),
    ...options.groups.map((group) => groupEntry(group, suffix)),
  ];
  return {
    suffix,
    bindDn,
    bindPassword: options.bindPassword,
    userBase: `ou=people,${suffix}`,
    groupBase: `ou=groups,${suffix}`,
    ldif: `${entries.join("\n\n")}\n`,
  };
}

const examplePerson = (uid: string, password: string): DirectoryTestPerson => ({
  uid,
  cn: `${uid} Example`,
  sn: "Example",
  displayName: `${uid.charAt(0).toUpperCase()}${uid.slice(1)} Example`,
  mail: `${uid}@example.test`,
  password,
});

/**
 * For the server's AD sign-in tests: ada is in ml-engineers, which is inside gpu-operators
 * (nested); carol is directly in viewers; bob is in printers, a group nobody maps. Each person's
 * password is `<uid>-pw`.
 */
export const signInDirectory = {
  ...directoryTestData({
    bindPassword: "svc-Bind-pw-7f3a91",
    people: [
      examplePerson("ada", "ada-pw"),
      examplePerson("bob", "bob-pw"),
      examplePerson("carol", "carol-pw"),
    ],
    groups: [
      { cn: "ml-engineers", members: [personDn("ada")] },
      { cn: "gpu-operators", members: [groupDn("ml-engineers")] },
      { cn: "viewers", members: [personDn("carol")] },
      { cn: "printers", members: [personDn("bob")] },
    ],
  }),
  operatorsDn: groupDn("gpu-operators"),
  viewersDn: groupDn("viewers"),
};

const namedPerson = (uid: string, name: string, password: string): DirectoryTestPerson => ({
  uid,
  cn: name,
  sn: name.split(" ")[1] ?? name,
  displayName: name,
  mail: `${uid}@example.test`,
  password,
});

/**
 * For the console's browser tests: grace is in ml-engineers, inside gpu-operators (nested);
 * linus is in no group. Each person's password is `<uid>-pw`.
 */
export const consoleDirectory = {
  ...directoryTestData({
    bindPassword: "e2e-svc-Bind-pw-41c2",
    people: [
      namedPerson("grace", "Grace Hopper", "grace-pw"),
      namedPerson("linus", "Linus Example", "linus-pw"),
    ],
    groups: [
      { cn: "ml-engineers", members: [personDn("grace")] },
      { cn: "gpu-operators", members: [groupDn("ml-engineers")] },
    ],
  }),
  operatorsDn: groupDn("gpu-operators"),
};
