// Rolling upgrades, driven by `llmgw ctl upgrade`: admins only, as a release runs everywhere.
import { adminProcedure, router } from "../trpc";
import {
  upgradeControlPlaneInputSchema,
  upgradeControlPlaneResultSchema,
  upgradeNodeInputSchema,
  upgradeNodeResultSchema,
  upgradePlanSchema,
} from "./schemas";

export const upgradeRouter = router({
  plan: adminProcedure.output(upgradePlanSchema).query(({ ctx }) => ctx.services.upgrade.plan()),
  controlPlane: adminProcedure
    .input(upgradeControlPlaneInputSchema)
    .output(upgradeControlPlaneResultSchema)
    .mutation(({ ctx, input }) => ctx.services.upgrade.controlPlane(input.version, ctx.actor)),
  node: adminProcedure
    .input(upgradeNodeInputSchema)
    .output(upgradeNodeResultSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.upgrade.node(input.nodeId, input.version, ctx.actor),
    ),
});
