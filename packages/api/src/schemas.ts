// Shapes the API returns and accepts. One zod schema per concept: the server validates against
// them, the console and `llmgw ctl` read the inferred types.
import { z } from "zod";
import { oneLine } from "./text";

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

export const nodeViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: nodeStateSchema,
  simulated: z.boolean(),
  simulationProfile: z.string().nullable(),
  agentVersion: z.string(),
  labels: z.record(z.string(), z.string()),
  engines: z.array(z.string()),
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

export const roleSchema = z.enum(["admin", "operator", "viewer"]);
export type Role = z.infer<typeof roleSchema>;

export const grantSchema = z.object({ role: roleSchema, scope: z.string() });
export type Grant = z.infer<typeof grantSchema>;

export const LOCALES = ["en", "tr"] as const;
export const localeSchema = z.enum(LOCALES, { message: "locale must be en or tr" });

/** The signed-in person: their cluster role and the grants they hold on orgs, teams, projects. */
export const userViewSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: roleSchema,
  displayName: z.string().default(""),
  source: z.enum(["local", "entra", "ldap", "scim"]).default("local"),
  locale: localeSchema.nullable().default(null),
  grants: z.array(grantSchema).default([]),
});
export type UserView = z.infer<typeof userViewSchema>;

export const loginInputSchema = z.object({
  username: oneLine("username").trim().min(1, "username is required").max(200),
  password: oneLine("password").min(1, "password is required").max(1000),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const loginOutputSchema = z.object({
  /**
   * Session token, for clients without a browser (the CLI, scripts) to send as a bearer token. A
   * browser gets it only as the HttpOnly cookie, so it is absent here.
   */
  token: z.string().optional(),
  expiresAt: z.string(),
  user: userViewSchema,
});
/** A session as the server opens it: the token is always there before the router decides. */
export type LoginOutput = z.infer<typeof loginOutputSchema> & { token: string };
