// People, groups, the org → team → project tree and role grants: what the identity procedures
// accept and answer. Secrets never appear in an output here.
import { z } from "zod";
import { oneLine } from "../text";
import { roleSchema } from "../auth/schemas";

const NAME = /^[A-Za-z0-9._@-]{1,100}$/;
const nameOf = (what: string) =>
  oneLine(what).trim().regex(NAME, `${what} may hold 1-100 letters, digits, and . _ @ -`);

export const usernameSchema = nameOf("a username");
export const idInputSchema = z.object({
  id: oneLine("id").trim().min(1, "id is required").max(100),
});

/** `*` (the whole cluster) or an org, team or project: `org:acme`, `team:ml`, `project:search`. */
export const scopeSchema = oneLine("scope")
  .trim()
  .regex(
    /^(\*|(org|team|project):[A-Za-z0-9._@-]{1,100})$/,
    "scope must be * (the whole cluster) or look like org:acme, team:ml or project:search",
  );

export const newPasswordSchema = z
  .string()
  .min(8, "a password needs at least 8 characters")
  .max(1000, "a password may have at most 1000 characters");

export const personViewSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  source: z.enum(["local", "entra", "ldap", "scim"]),
  isActive: z.boolean(),
  /** The role given to the person directly; groups and grants may add more. */
  directRole: roleSchema.nullable(),
  /** What the person holds on the cluster, all grants counted. */
  role: roleSchema.nullable(),
  groups: z.array(z.string()),
  grants: z.array(z.object({ role: roleSchema, scope: z.string(), via: z.string() })),
  homeOwner: z.string().nullable(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
});
export type PersonView = z.infer<typeof personViewSchema>;

export const createPersonInputSchema = z.object({
  username: usernameSchema,
  displayName: oneLine("displayName").trim().max(200).optional(),
  email: oneLine("email").trim().max(320).email("email must look like name@example.com").optional(),
  password: newPasswordSchema.optional(),
  role: roleSchema.optional(),
  homeOwner: z
    .string()
    .trim()
    .regex(/^(org|team|project):[A-Za-z0-9._@-]{1,100}$/, "home must look like team:ml")
    .optional(),
});
export type CreatePersonInput = z.infer<typeof createPersonInputSchema>;

export const updatePersonInputSchema = z.object({
  id: oneLine("id").trim().min(1, "id is required").max(100),
  role: roleSchema.nullable().optional(),
  isActive: z.boolean().optional(),
  password: newPasswordSchema.optional(),
  displayName: oneLine("displayName").trim().max(200).optional(),
  homeOwner: z
    .string()
    .trim()
    .regex(/^(org|team|project):[A-Za-z0-9._@-]{1,100}$/, "home must look like team:ml")
    .nullable()
    .optional(),
});
export type UpdatePersonInput = z.infer<typeof updatePersonInputSchema>;

export const groupViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  source: z.enum(["local", "entra", "ldap", "scim"]),
  externalId: z.string().nullable(),
  members: z.array(z.string()),
  grants: z.array(z.object({ role: roleSchema, scope: z.string() })),
});
export type GroupView = z.infer<typeof groupViewSchema>;

export const createGroupInputSchema = z.object({
  name: oneLine("name").trim().min(1, "a group needs a name").max(200),
  /** The directory's id for the group: an Entra group object id or an AD group DN. */
  externalId: oneLine("externalId").trim().min(1).max(1000).optional(),
});
export type CreateGroupInput = z.infer<typeof createGroupInputSchema>;

export const groupMemberInputSchema = z.object({
  group: oneLine("group").trim().min(1, "group is required").max(200),
  username: usernameSchema,
});

export const orgUnitViewSchema = z.object({
  kind: z.enum(["org", "team", "project"]),
  name: z.string(),
  parent: z.string().nullable(),
});
export type OrgUnitView = z.infer<typeof orgUnitViewSchema>;

export const createOrgUnitInputSchema = z.object({
  kind: z.enum(["org", "team", "project"]),
  name: nameOf("a name"),
  /** `org:acme` for a team, `team:ml` for a project; none for an org. */
  parent: z
    .string()
    .trim()
    .regex(/^(org|team):[A-Za-z0-9._@-]{1,100}$/, "parent must look like org:acme or team:ml")
    .optional(),
});
export type CreateOrgUnitInput = z.infer<typeof createOrgUnitInputSchema>;

export const ownerInputSchema = z.object({
  owner: z
    .string()
    .trim()
    .regex(/^(org|team|project):[A-Za-z0-9._@-]{1,100}$/, "owner must look like team:ml"),
});

export const roleBindingViewSchema = z.object({
  id: z.string(),
  subjectKind: z.enum(["user", "group"]),
  subject: z.string(),
  role: roleSchema,
  scope: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type RoleBindingView = z.infer<typeof roleBindingViewSchema>;

export const grantRoleInputSchema = z
  .object({
    user: usernameSchema.optional(),
    group: oneLine("group").trim().min(1).max(200).optional(),
    role: roleSchema,
    scope: scopeSchema.default("*"),
  })
  .refine((v) => (v.user === undefined) !== (v.group === undefined), {
    message: "name exactly one of user or group",
  });
export type GrantRoleInput = z.infer<typeof grantRoleInputSchema>;
