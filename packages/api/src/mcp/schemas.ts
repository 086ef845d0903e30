// MCP gateway: servers (their credentials travel in, never out) and tool grants per level.
// One schema per concept, shared by tRPC, the CLI and the console's forms.
import { MCP_SERVER_NAME_PATTERN, MCP_TOOL_PATTERN } from "@llmgw/domain";
import { z } from "zod";
import { multiLine, oneLine } from "../text";

export const mcpServerNameSchema = oneLine("server name")
  .trim()
  .regex(
    MCP_SERVER_NAME_PATTERN,
    "server name: lower-case letters, digits, - and _ (up to 63), starting with a letter or digit; or llmgw:admin",
  );

/** A level tools are granted to: `org:`, `team:`, `project:`, `user:` or `key:<id>`. */
export const mcpSubjectSchema = oneLine("subject")
  .trim()
  .regex(
    /^(org|team|project|user|key):[A-Za-z0-9._@-]{1,100}$/,
    "grant to org:NAME, team:NAME, project:NAME, user:NAME or key:ID",
  );

export const mcpToolPatternSchema = oneLine("tool pattern")
  .trim()
  .regex(MCP_TOOL_PATTERN, "a tool pattern holds letters, digits, . _ / - and *");

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
/** Headers the gateway sets itself, or that would confuse the transport. */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "content-type",
  "accept",
  "connection",
  "transfer-encoding",
  "mcp-session-id",
  "mcp-protocol-version",
]);

const headerNameSchema = oneLine("header name")
  .trim()
  .regex(HEADER_NAME, "a header name holds letters, digits and - only")
  .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), {
    message: "that header is set by the gateway itself",
  });
const headerValueSchema = oneLine("header value")
  .min(1, "a header value is empty")
  .max(8_192, "a header value is at most 8192 characters")
  .refine((value) => !/[\r\n\0]/.test(value), { message: "a header value holds no line breaks" });

export const mcpHeaderInputSchema = z.object({ name: headerNameSchema, value: headerValueSchema });

/** The credential: a bearer token, or another header (an API key header), sealed in the store. */
export const mcpCredentialSchema = z.union([
  z.object({ bearer: headerValueSchema }),
  z.object({ secretHeader: mcpHeaderInputSchema }),
]);
export type McpCredential = z.infer<typeof mcpCredentialSchema>;

const timeoutMsSchema = z
  .number()
  .int("timeout must be whole milliseconds")
  .min(100, "timeout must be at least 100 ms")
  .max(600_000, "timeout must be at most 600000 ms (10 minutes)");
const callsPerMinuteSchema = z
  .number()
  .int("rate must be a whole number of calls a minute")
  .min(1, "rate must be at least 1 call a minute")
  .max(1_000_000, "rate must be at most 1000000 calls a minute");
const descriptionSchema = multiLine("description")
  .trim()
  .max(500, "description is at most 500 characters");

export const mcpAddServerInputSchema = z.object({
  name: mcpServerNameSchema,
  /** Absent only for llmgw:admin, whose address is fixed. */
  url: oneLine("url").trim().max(2_000).optional(),
  description: descriptionSchema.optional(),
  timeoutMs: timeoutMsSchema.optional(),
  callsPerMinute: callsPerMinuteSchema.optional(),
  headers: z.array(mcpHeaderInputSchema).max(32).default([]),
  credential: mcpCredentialSchema.optional(),
  enabled: z.boolean().default(true),
});
export type McpAddServerInput = z.input<typeof mcpAddServerInputSchema>;

/** A change: an absent field stays; `null` (or an empty description) clears it. */
export const mcpUpdateServerInputSchema = z.object({
  name: mcpServerNameSchema,
  url: oneLine("url").trim().max(2_000).optional(),
  description: descriptionSchema.nullable().optional(),
  timeoutMs: timeoutMsSchema.nullable().optional(),
  callsPerMinute: callsPerMinuteSchema.nullable().optional(),
  /** The plain headers, replacing the plain ones there were; the sealed ones stay. */
  headers: z.array(mcpHeaderInputSchema).max(32).optional(),
});
export type McpUpdateServerInput = z.infer<typeof mcpUpdateServerInputSchema>;

export const mcpServerNameInputSchema = z.object({ name: mcpServerNameSchema });
export const mcpReplaceCredentialInputSchema = z.object({
  name: mcpServerNameSchema,
  credential: mcpCredentialSchema,
});

export const mcpHeaderViewSchema = z.object({
  name: z.string(),
  isSealed: z.boolean(),
  /** Plain headers only; a sealed value is never answered. */
  value: z.string().nullable(),
});

export const mcpServerStateSchema = z.enum(["enabled", "disabled", "out"]);

export const mcpGrantViewSchema = z.object({
  subject: z.string(),
  server: z.string(),
  tools: z.array(z.string()),
  /** An empty list: this level grants nothing, whatever is above it, until it is opened. */
  isClosed: z.boolean(),
  grantedBy: z.string(),
  updatedAt: z.string(),
});
export type McpGrantView = z.infer<typeof mcpGrantViewSchema>;

export const mcpServerViewSchema = z.object({
  name: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  timeoutMs: z.number().nullable(),
  callsPerMinute: z.number().nullable(),
  headers: z.array(mcpHeaderViewSchema),
  isBuiltIn: z.boolean(),
  /** disabled: turned off; out: five failures in a row took it out for a while. */
  state: mcpServerStateSchema,
  /** Milliseconds until a server taken out is tried again. */
  outForMs: z.number(),
  grants: z.array(mcpGrantViewSchema),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type McpServerView = z.infer<typeof mcpServerViewSchema>;

export const mcpToolViewSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
});

export const mcpTestResultSchema = z.object({
  ok: z.boolean(),
  tools: z.array(mcpToolViewSchema),
  error: z.string().nullable(),
  elapsedMs: z.number(),
});
export type McpTestResult = z.infer<typeof mcpTestResultSchema>;

export const mcpGrantInputSchema = z.object({
  subject: mcpSubjectSchema,
  server: mcpServerNameSchema,
  tools: z
    .array(mcpToolPatternSchema)
    .min(1, "name at least one tool or pattern (`*` for all)")
    .max(128),
});
export type McpGrantInput = z.infer<typeof mcpGrantInputSchema>;

export const mcpRevokeInputSchema = z.object({
  subject: mcpSubjectSchema,
  server: mcpServerNameSchema,
  /** Absent: every tool of the server. */
  tools: z.array(mcpToolPatternSchema).min(1).max(128).optional(),
});
export type McpRevokeInput = z.infer<typeof mcpRevokeInputSchema>;

export const mcpOpenInputSchema = z.object({
  subject: mcpSubjectSchema,
  server: mcpServerNameSchema,
});

export const mcpGrantListInputSchema = z
  .object({ server: mcpServerNameSchema.optional(), subject: mcpSubjectSchema.optional() })
  .default({});
