// People, groups, the ownership tree and role grants. Anyone signed in may look; only admins change.
import { endedSessionsSchema } from "../auth/schemas";
import {
  createGroupInputSchema,
  createOrgUnitInputSchema,
  createPersonInputSchema,
  grantRoleInputSchema,
  groupMemberInputSchema,
  groupViewSchema,
  idInputSchema,
  orgUnitViewSchema,
  ownerInputSchema,
  personViewSchema,
  roleBindingViewSchema,
  updatePersonInputSchema,
} from "./schemas";
import { adminProcedure, answerOk, listQuery, router } from "../trpc";

export const peopleRouter = router({
  list: listQuery(personViewSchema, (services) => services.people.list()),
  create: adminProcedure
    .input(createPersonInputSchema)
    .output(personViewSchema)
    .mutation(({ ctx, input }) => ctx.services.people.create(input, ctx.actor)),
  update: adminProcedure
    .input(updatePersonInputSchema)
    .output(personViewSchema)
    .mutation(({ ctx, input }) => ctx.services.people.update(input, ctx.actor)),
  remove: adminProcedure
    .input(idInputSchema)
    .mutation(({ ctx, input }) => answerOk(ctx.services.people.remove(input.id, ctx.actor))),
  signOut: adminProcedure
    .input(idInputSchema)
    .output(endedSessionsSchema)
    .mutation(async ({ ctx, input }) => ({
      ended: await ctx.services.people.signOut(input.id, ctx.actor),
    })),
});

export const groupsRouter = router({
  list: listQuery(groupViewSchema, (services) => services.people.groups()),
  create: adminProcedure
    .input(createGroupInputSchema)
    .output(groupViewSchema)
    .mutation(({ ctx, input }) => ctx.services.people.createGroup(input, ctx.actor)),
  remove: adminProcedure
    .input(idInputSchema)
    .mutation(({ ctx, input }) => answerOk(ctx.services.people.removeGroup(input.id, ctx.actor))),
  addMember: adminProcedure
    .input(groupMemberInputSchema)
    .output(groupViewSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.people.addMember(input.group, input.username, ctx.actor),
    ),
  removeMember: adminProcedure
    .input(groupMemberInputSchema)
    .output(groupViewSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.people.removeMember(input.group, input.username, ctx.actor),
    ),
});

export const orgRouter = router({
  list: listQuery(orgUnitViewSchema, (services) => services.people.units()),
  create: adminProcedure
    .input(createOrgUnitInputSchema)
    .output(orgUnitViewSchema)
    .mutation(({ ctx, input }) => ctx.services.people.createUnit(input, ctx.actor)),
  remove: adminProcedure
    .input(ownerInputSchema)
    .mutation(({ ctx, input }) => answerOk(ctx.services.people.removeUnit(input.owner, ctx.actor))),
});

export const rolesRouter = router({
  list: listQuery(roleBindingViewSchema, (services) => services.people.bindings()),
  grant: adminProcedure
    .input(grantRoleInputSchema)
    .output(roleBindingViewSchema)
    .mutation(({ ctx, input }) => ctx.services.people.grant(input, ctx.actor)),
  revoke: adminProcedure
    .input(idInputSchema)
    .mutation(({ ctx, input }) => answerOk(ctx.services.people.revokeGrant(input.id, ctx.actor))),
});
