// Facility domains: list them, hold and release one; cordoning a node is nodes.cordon.
import {
  facilityHoldInputSchema,
  facilityHoldViewSchema,
  facilityReleaseInputSchema,
  facilityViewSchema,
} from "./schemas";
import { adminProcedure, authedProcedure, router } from "../trpc";

export const facilityRouter = router({
  list: authedProcedure.output(facilityViewSchema).query(({ ctx }) => ctx.services.facility.list()),

  /** Nothing new is placed in the domain; with drain its replicas move elsewhere with surge. */
  hold: adminProcedure
    .input(facilityHoldInputSchema)
    .output(facilityHoldViewSchema)
    .mutation(({ ctx, input }) => ctx.services.facility.hold(input.domain, input.drain, ctx.actor)),

  release: adminProcedure
    .input(facilityReleaseInputSchema)
    .output(facilityHoldViewSchema)
    .mutation(({ ctx, input }) => ctx.services.facility.release(input.domain, ctx.actor)),
});
