// Nodes as the API shows them: inventory, live measurements and the recent card samples.
import { z } from "zod";
import { ENGINE_BUILD_CHOICES, labelKeyProblem, labelValueProblem } from "@llmgw/domain";
import { oneLine } from "../text";

export const nodeStateSchema = z.enum(["ready", "unreachable"]);
export type NodeState = z.infer<typeof nodeStateSchema>;

/** A card as the API shows it. Measurements the driver did not report are null, never zero. */
export const gpuViewSchema = z.object({
  index: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  memoryBytesTotal: z.number(),
  memoryBytesUsed: z.number().nullable(),
  computeCapability: z.string().nullable(),
  /** The fastest generation card and slot allow together. */
  pcieGenMax: z.number().nullable(),
  /** The fastest generation the card itself supports. */
  pcieGenCardMax: z.number().nullable(),
  /** Drops while the card idles: shown, never compared. */
  pcieGenCurrent: z.number().nullable(),
  pcieWidthMax: z.number().nullable(),
  pcieWidthCurrent: z.number().nullable(),
  /**
   * The link as seated (the slot's generation, the lanes in use) against what the card could
   * have, in GB/s each way; null when the driver did not say enough to judge.
   */
  pcieLink: z
    .object({
      carriedGBps: z.number(),
      possibleGBps: z.number(),
      isBelowCapability: z.boolean(),
      reason: z.string().nullable(),
    })
    .nullable(),
  migEnabled: z.boolean(),
  utilizationPercent: z.number().nullable(),
  temperatureCelsius: z.number().nullable(),
  powerWatts: z.number().nullable(),
});
export type GpuView = z.infer<typeof gpuViewSchema>;

/** An engine the node's agent installs itself (llama.cpp), as it last reported it. */
export const engineInstallViewSchema = z.object({
  engine: z.string(),
  version: z.string(),
  state: z.enum(["installing", "ready", "failed"]),
  /** The running step, the version the check printed, or why it failed. */
  message: z.string(),
  /** The install log's last lines, oldest first. */
  logTail: z.array(z.string()),
  /** ISO-8601, on the agent's clock. */
  changedAt: z.string(),
});
export type EngineInstallView = z.infer<typeof engineInstallViewSchema>;

/** What the node made of its build choice, as its agent last reported it. */
export const engineBuildReportSchema = z.object({
  choice: z.string(),
  build: z.string(),
  reason: z.string(),
  installSource: z.string(),
  withheldEngines: z.array(z.string()),
});

/** The GPU engine build chosen for the node (`ctl engine-build`) and what the node applies. */
export const engineBuildViewSchema = z.object({
  choice: z.enum(ENGINE_BUILD_CHOICES),
  /** Null while the node runs the default (auto) because nobody chose. */
  setBy: z.string().nullable(),
  setAt: z.string().nullable(),
  /** Null for a node not connected, or whose agent predates the choice. */
  applied: engineBuildReportSchema.nullable(),
});
export type EngineBuildView = z.infer<typeof engineBuildViewSchema>;

export const nodeViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: nodeStateSchema,
  simulated: z.boolean(),
  simulationProfile: z.string().nullable(),
  agentVersion: z.string(),
  /** The agent's labels with those set in the store (`ctl label`) over them. */
  labels: z.record(z.string(), z.string()),
  /** Only the labels set in the store, which win over the agent's. */
  storedLabels: z.record(z.string(), z.string()),
  /** Cordoned: nothing new is placed here; draining: its replicas are moved off with surge too. */
  cordon: z.enum(["cordoned", "draining"]).nullable(),
  /** Engines the node offers now: what it found plus the installs that are ready. */
  engines: z.array(z.string()),
  /** Empty for a node that installs nothing itself (or whose agent predates installs). */
  engineInstalls: z.array(engineInstallViewSchema),
  engineBuild: engineBuildViewSchema,
  features: z.array(z.string()),
  /** ISO-8601 timestamps. */
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  cpu: z.object({
    model: z.string(),
    cores: z.number().int(),
    utilizationPercent: z.number().nullable(),
  }),
  memory: z.object({ bytesTotal: z.number(), bytesUsed: z.number().nullable() }),
  disk: z.object({ bytesTotal: z.number(), bytesFree: z.number().nullable() }),
  /**
   * Bytes a second over the node's interfaces other than loopback, as its last heartbeat said;
   * null where the agent measures none (not Linux, its first beat, an older agent) or is away.
   */
  network: z.object({
    receiveBytesPerSecond: z.number().nullable(),
    transmitBytesPerSecond: z.number().nullable(),
  }),
  /** Seconds since the server received the node's last heartbeat; null before its first. */
  heartbeatAgeSeconds: z.number().nullable(),
  os: z.string(),
  arch: z.string(),
  driverVersion: z.string().nullable(),
  gpus: z.array(gpuViewSchema),
});
export type NodeView = z.infer<typeof nodeViewSchema>;

/** One card at one heartbeat; null where the driver reported nothing. */
export const gpuPointSchema = z.object({
  index: z.number().int(),
  utilizationPercent: z.number().nullable(),
  memoryBytesUsed: z.number().nullable(),
  temperatureCelsius: z.number().nullable(),
});

/** The last few minutes of a node's card samples, oldest first (kept in the server's memory). */
export const gpuHistorySchema = z.object({
  nodeId: z.string(),
  /** How far back the server keeps samples, at the current heartbeat interval. */
  windowMs: z.number(),
  samples: z.array(z.object({ atMs: z.number(), gpus: z.array(gpuPointSchema) })),
});
export type GpuHistoryView = z.infer<typeof gpuHistorySchema>;

export const nodeIdInputSchema = z.object({
  id: oneLine("node id").min(1, "node id is required").max(200),
});

export const removedNodeSchema = z.object({
  id: z.string(),
  certificatesRevoked: z.number().int(),
});

/** `ctl label NODE key=value… key-`: keys and values are checked here, each refusal naming it. */
export const nodeLabelInputSchema = z.object({
  id: nodeIdInputSchema.shape.id,
  set: z.record(z.string(), z.string()).superRefine((labels, ctx) => {
    for (const [key, value] of Object.entries(labels)) {
      const problem = labelKeyProblem(key) ?? labelValueProblem(key, value);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
    }
  }),
  remove: z.array(z.string()).superRefine((keys, ctx) => {
    for (const key of keys) {
      const problem = labelKeyProblem(key);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
    }
  }),
});
export type NodeLabelInput = z.infer<typeof nodeLabelInputSchema>;

/**
 * `ctl engine-build NODE BUILD`. The build is checked by the service, not here, so a word that is no
 * build is refused with its own code and the four that are.
 */
export const nodeEngineBuildInputSchema = z.object({
  id: nodeIdInputSchema.shape.id,
  build: oneLine("build").max(40),
});
export type NodeEngineBuildInput = z.infer<typeof nodeEngineBuildInputSchema>;
