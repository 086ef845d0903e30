// People, groups, the org tree and role grants from the terminal. Changes need an admin.
import type { PersonView, RoleBindingView } from "@llmgw/api";
import { required, UsageError } from "../args";
import { readPassword } from "../prompt";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

const USERS_USAGE =
  "users [list] [--json] | create NAME [--role R] [--home team:ml] [--email E] [--display-name N] [--password-stdin] | role NAME admin|operator|viewer|none | disable NAME | enable NAME | sign-out NAME | remove NAME";
const ROLES_USAGE =
  "roles [list] [--json] | grant (--user NAME | --group NAME) --role R [--scope team:ml] | revoke ID";
const GROUPS_USAGE =
  "groups [list] [--json] | create NAME [--external-id ID] | add GROUP USER | remove GROUP USER";
const ORG_USAGE =
  "org [list] [--json] | add org:NAME | add team:NAME --parent org:NAME | remove OWNER";

const ROLE_NAMES = ["admin", "operator", "viewer"] as const;
type RoleName = (typeof ROLE_NAMES)[number];

function roleArg(value: string | undefined, usage: string): RoleName {
  if (!ROLE_NAMES.includes(value as RoleName))
    throw new UsageError(
      `role must be admin, operator or viewer, not "${value ?? ""}"; usage: ${usage}`,
    );
  return value as RoleName;
}

function peopleTable(people: readonly PersonView[]): string {
  const rows = people.map((p) => [
    p.username,
    p.role ?? "-",
    p.source,
    p.isActive ? "active" : "disabled",
    p.groups.join(",") || "-",
    p.grants
      .filter((g) => g.scope !== "*")
      .map((g) => `${g.role}@${g.scope}`)
      .join(",") || "-",
    p.lastSignInAt ?? "never",
  ]);
  return renderTable(["USER", "ROLE", "SOURCE", "STATE", "GROUPS", "GRANTS", "LAST SIGN-IN"], rows);
}

async function personId(ctx: CommandContext, name: string): Promise<string> {
  const person = (await ctx.api.people.list.query()).find((p) => p.username === name);
  if (!person) throw new UsageError(`no person "${name}"; see \`llmgw ctl users\``);
  return person.id;
}

async function usersCommand(ctx: CommandContext): Promise<number> {
  const [verb, name, extra] = ctx.args;
  const need = () => required(ctx.args, 1, "NAME", USERS_USAGE);
  switch (verb) {
    case undefined:
    case "list": {
      const people = await ctx.api.people.list.query();
      if (ctx.values.json) printJson(ctx, people);
      else ctx.write(peopleTable(people));
      return 0;
    }
    case "create": {
      const password = ctx.values["password-stdin"] ? await readPassword(true, "") : undefined;
      const made = await ctx.api.people.create.mutate({
        username: need(),
        role: ctx.values.role === undefined ? undefined : roleArg(ctx.values.role, USERS_USAGE),
        homeOwner: ctx.values.home,
        email: ctx.values.email,
        displayName: ctx.values["display-name"],
        password,
      });
      ctx.write(`${made.username} created (${made.role ?? "no role"})\n`);
      return 0;
    }
    case "role": {
      const role = extra === "none" ? null : roleArg(extra, USERS_USAGE);
      await ctx.api.people.update.mutate({ id: await personId(ctx, need()), role });
      ctx.write(`${name} now holds ${role ?? "no role of their own"}\n`);
      return 0;
    }
    case "disable":
    case "enable":
      await ctx.api.people.update.mutate({
        id: await personId(ctx, need()),
        isActive: verb === "enable",
      });
      ctx.write(`${name} is ${verb}d\n`);
      return 0;
    case "sign-out": {
      const { ended } = await ctx.api.people.signOut.mutate({ id: await personId(ctx, need()) });
      ctx.write(`${ended} session(s) of ${name} ended\n`);
      return 0;
    }
    case "remove":
      await ctx.api.people.remove.mutate({ id: await personId(ctx, need()) });
      ctx.write(`${name} removed\n`);
      return 0;
    default:
      throw new UsageError(`unknown users command "${verb}"; usage: ${USERS_USAGE}`);
  }
}

function rolesTable(bindings: readonly RoleBindingView[]): string {
  const rows = bindings.map((b) => [
    b.id,
    `${b.subjectKind}:${b.subject}`,
    b.role,
    b.scope,
    b.createdBy,
  ]);
  return renderTable(["ID", "WHO", "ROLE", "SCOPE", "GRANTED BY"], rows);
}

async function rolesCommand(ctx: CommandContext): Promise<number> {
  const [verb] = ctx.args;
  switch (verb) {
    case undefined:
    case "list": {
      const bindings = await ctx.api.roles.list.query();
      if (ctx.values.json) printJson(ctx, bindings);
      else ctx.write(bindings.length ? rolesTable(bindings) : "no role grants yet\n");
      return 0;
    }
    case "grant": {
      const made = await ctx.api.roles.grant.mutate({
        user: ctx.values.user,
        group: ctx.values.group,
        role: roleArg(ctx.values.role, ROLES_USAGE),
        scope: ctx.values.scope ?? "*",
      });
      ctx.write(
        `${made.subjectKind} ${made.subject} holds ${made.role} on ${made.scope} (grant ${made.id})\n`,
      );
      return 0;
    }
    case "revoke":
      await ctx.api.roles.revoke.mutate({ id: required(ctx.args, 1, "ID", ROLES_USAGE) });
      ctx.write("grant revoked\n");
      return 0;
    default:
      throw new UsageError(`unknown roles command "${verb}"; usage: ${ROLES_USAGE}`);
  }
}

async function groupsCommand(ctx: CommandContext): Promise<number> {
  const [verb, group, user] = ctx.args;
  switch (verb) {
    case undefined:
    case "list": {
      const groups = await ctx.api.groups.list.query();
      if (ctx.values.json) printJson(ctx, groups);
      else
        ctx.write(
          renderTable(
            ["GROUP", "SOURCE", "MEMBERS", "ROLES"],
            groups.map((g) => [
              g.name,
              g.source,
              g.members.join(",") || "-",
              g.grants.map((r) => `${r.role}@${r.scope}`).join(",") || "-",
            ]),
          ),
        );
      return 0;
    }
    case "create":
      await ctx.api.groups.create.mutate({
        name: required(ctx.args, 1, "NAME", GROUPS_USAGE),
        externalId: ctx.values["external-id"],
      });
      ctx.write(`group ${group} created\n`);
      return 0;
    case "add":
    case "remove": {
      const input = {
        group: required(ctx.args, 1, "GROUP", GROUPS_USAGE),
        username: required(ctx.args, 2, "USER", GROUPS_USAGE),
      };
      if (verb === "add") await ctx.api.groups.addMember.mutate(input);
      else await ctx.api.groups.removeMember.mutate(input);
      ctx.write(`${user} ${verb === "add" ? "added to" : "removed from"} ${group}\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown groups command "${verb}"; usage: ${GROUPS_USAGE}`);
  }
}

async function orgCommand(ctx: CommandContext): Promise<number> {
  const [verb] = ctx.args;
  if (verb === undefined || verb === "list") {
    const units = await ctx.api.org.list.query();
    if (ctx.values.json) printJson(ctx, units);
    else
      ctx.write(
        renderTable(
          ["OWNER", "PARENT"],
          units.map((u) => [`${u.kind}:${u.name}`, u.parent ?? "-"]),
        ),
      );
    return 0;
  }
  const owner = required(ctx.args, 1, "OWNER", ORG_USAGE);
  if (verb === "remove") {
    await ctx.api.org.remove.mutate({ owner });
    ctx.write(`${owner} removed\n`);
    return 0;
  }
  if (verb !== "add") throw new UsageError(`unknown org command "${verb}"; usage: ${ORG_USAGE}`);
  const [kind, name] = owner.split(":");
  if (kind !== "org" && kind !== "team" && kind !== "project")
    throw new UsageError(
      `OWNER must look like org:acme, team:ml or project:search; usage: ${ORG_USAGE}`,
    );
  await ctx.api.org.create.mutate({ kind, name: name ?? "", parent: ctx.values.parent });
  ctx.write(`${owner} added\n`);
  return 0;
}

export const identityCommands: Record<string, Command> = {
  users: {
    usage: USERS_USAGE,
    summary: "people: list, create, roles, disable, sign out",
    flags: ["json", "role", "home", "email", "display-name", "password-stdin"],
    takesArguments: true,
    run: usersCommand,
  },
  roles: {
    usage: ROLES_USAGE,
    summary: "role grants on the cluster, an org, team or project",
    flags: ["json", "user", "group", "role", "scope"],
    takesArguments: true,
    run: rolesCommand,
  },
  groups: {
    usage: GROUPS_USAGE,
    summary: "groups of people and their members",
    flags: ["json", "external-id"],
    takesArguments: true,
    run: groupsCommand,
  },
  org: {
    usage: ORG_USAGE,
    summary: "the org → team → project tree",
    flags: ["json", "parent"],
    takesArguments: true,
    run: orgCommand,
  },
};
