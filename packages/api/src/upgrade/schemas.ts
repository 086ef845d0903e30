// Rolling upgrades: what `ctl upgrade` reads before it starts (the plan), and its two steps: the
// control plane, then one node at a time.
import { z } from "zod";
import { oneLine } from "../text";
import { releaseVersionSchema, releaseViewSchema } from "../releases/schemas";

export const upgradePlanNodeSchema = z.object({
  id: z.string(),
  name: z.string(),
  agentVersion: z.string(),
  isConnected: z.boolean(),
  isReady: z.boolean(),
  readyReplicas: z.number().int(),
  /** The agent announced the `upgrade` feature, so it can be told to upgrade itself. */
  canUpgrade: z.boolean(),
});
export type UpgradePlanNode = z.infer<typeof upgradePlanNodeSchema>;

export const upgradePlanSchema = z.object({
  serverVersion: z.string(),
  /** Null when the control plane can upgrade itself; otherwise why not. */
  serverRefusal: z.string().nullable(),
  releases: z.array(releaseViewSchema),
  nodes: z.array(upgradePlanNodeSchema),
});
export type UpgradePlan = z.infer<typeof upgradePlanSchema>;

export const upgradeControlPlaneInputSchema = z.object({ version: releaseVersionSchema });

export const upgradeControlPlaneResultSchema = z.object({
  from: z.string(),
  version: z.string(),
  /** False when it already ran the version: nothing changed and nothing restarts. */
  isRestarting: z.boolean(),
});
export type UpgradeControlPlaneResult = z.infer<typeof upgradeControlPlaneResultSchema>;

export const upgradeNodeInputSchema = z.object({
  nodeId: oneLine("nodeId").trim().min(1, "nodeId is empty").max(200),
  version: releaseVersionSchema,
});

export const upgradeNodeResultSchema = z.object({
  nodeId: z.string(),
  name: z.string(),
  from: z.string(),
  version: z.string(),
  /** False when its agent already ran the version and does not restart. */
  isRestarting: z.boolean(),
});
export type UpgradeNodeResult = z.infer<typeof upgradeNodeResultSchema>;
