// People, groups, the ownership tree and role grants. Anyone signed in may look; only admins change.
import { z } from "zod";
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
import { adminProcedure, authedProcedure, router } from "../trpc";

const ok = { ok: true as const };

export const peopleRouter = router({
  list: authedProcedure
    .output(z.array(personViewSchema))
    .query(({ ctx }) => ctx.services.people.list()),
  create: adminProcedure
    .input(createPersonInputSchema)
    .output(personViewSchema)
    .mutation(({ ctx, input }) => ctx.services.people.create(input, ctx.actor)),
  update: adminProcedure
    .input(updatePersonInputSchema)
    .output(personViewSchema)
    .mutation(({ ctx, input }) => ctx.services.people.update(input, ctx.actor)),
  remove: adminProcedure.input(idInputSchema).mutation(async ({ ctx, input }) => {
    await ctx.services.people.remove(input.id, ctx.actor);
    return ok;
  }),
  signOut: adminProcedure
    .input(idInputSchema)
    .output(z.object({ ended: z.number() }))
    .mutation(async ({ ctx, input }) => ({
      ended: await ctx.services.people.signOut(input.id, ctx.actor),
    })),
});

export const groupsRouter = router({
  list: authedProcedure
    .output(z.array(groupViewSchema))
    .query(({ ctx }) => ctx.services.people.groups()),
  create: adminProcedure
    .input(createGroupInputSchema)
    .output(groupViewSchema)
    .mutation(({ ctx, input }) => ctx.services.people.createGroup(input, ctx.actor)),
  remove: adminProcedure.input(idInputSchema).mutation(async ({ ctx, input }) => {
    await ctx.services.people.removeGroup(input.id, ctx.actor);
    return ok;
  }),
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
  list: authedProcedure
    .output(z.array(orgUnitViewSchema))
    .query(({ ctx }) => ctx.services.people.units()),
  create: adminProcedure
    .input(createOrgUnitInputSchema)
    .output(orgUnitViewSchema)
    .mutation(({ ctx, input }) => ctx.services.people.createUnit(input, ctx.actor)),
  remove: adminProcedure.input(ownerInputSchema).mutation(async ({ ctx, input }) => {
    await ctx.services.people.removeUnit(input.owner, ctx.actor);
    return ok;
  }),
});

export const rolesRouter = router({
  list: authedProcedure
    .output(z.array(roleBindingViewSchema))
    .query(({ ctx }) => ctx.services.people.bindings()),
  grant: adminProcedure
    .input(grantRoleInputSchema)
    .output(roleBindingViewSchema)
    .mutation(({ ctx, input }) => ctx.services.people.grant(input, ctx.actor)),
  revoke: adminProcedure.input(idInputSchema).mutation(async ({ ctx, input }) => {
    await ctx.services.people.revokeGrant(input.id, ctx.actor);
    return ok;
  }),
});
