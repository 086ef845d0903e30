// Failed /v1 requests one by one, newest first: what failed, with which key and status, and where it
// ran, so an operator can open that node's log on the request's id.
import { z } from "zod";
import { oneLine } from "../text";

export const FAILED_REQUESTS_PAGE_MAX = 200;

const isoTime = (what: string) =>
  z.iso.datetime({
    offset: true,
    message: `${what} must be an ISO-8601 time like 2030-01-01T00:00:00Z`,
  });

export const failedRequestsInputSchema = z
  .object({
    model: oneLine("model").trim().min(1).max(200).optional(),
    /** ISO-8601; default: 24 hours before `until`. */
    since: isoTime("since").optional(),
    /** ISO-8601; default: now. */
    until: isoTime("until").optional(),
    /** Rows older than this one (the previous page's `nextCursor`). */
    cursor: z
      .number()
      .int("cursor must be a whole number")
      .positive("cursor must be above 0")
      .optional(),
    limit: z
      .number()
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(FAILED_REQUESTS_PAGE_MAX, `limit must be at most ${FAILED_REQUESTS_PAGE_MAX}`)
      .default(50),
  })
  .default({ limit: 50 });
export type FailedRequestsInput = z.infer<typeof failedRequestsInputSchema>;

/**
 * Why a failed request has no node to open: `no-replica` — refused before any replica was reached
 * (limits, queue, no endpoint); `external` — an external provider answered; `replica-unknown` — the
 * replica is gone and no placement of it is recorded any more; `node-removed` — its node has left.
 */
export const NO_NODE_REASONS = [
  "no-replica",
  "external",
  "replica-unknown",
  "node-removed",
] as const;
export const noNodeReasonSchema = z.enum(NO_NODE_REASONS);
export type NoNodeReason = z.infer<typeof noNodeReasonSchema>;

export const failedRequestSchema = z.object({
  /** The row's id: a page's last one is the next page's cursor. */
  id: z.number(),
  /** ISO-8601: when the answer ended. */
  at: z.string(),
  model: z.string(),
  endpoint: z.string(),
  status: z.number(),
  /** The code the client was given (`upstream_interrupted`, `model_not_ready`…); null if none was kept. */
  errorCode: z.string().nullable(),
  requestId: z.string(),
  owner: z.string(),
  /** The key's visible prefix; null when the key no longer exists. Never the secret. */
  keyPrefix: z.string().nullable(),
  latencyMs: z.number(),
  /** The replica that answered (or `external:MODEL#n`); null when none was reached. */
  replicaId: z.string().nullable(),
  /** The node the replica ran on; null when it cannot be told (see `noNodeReason`). */
  nodeId: z.string().nullable(),
  nodeName: z.string().nullable(),
  /** Whether the replica has since stopped (its node was found from its placement). */
  isReplicaGone: z.boolean(),
  /** Null when the node's log can be opened. */
  noNodeReason: noNodeReasonSchema.nullable(),
});
export type FailedRequest = z.infer<typeof failedRequestSchema>;

export const failedRequestsPageSchema = z.object({
  since: z.string(),
  until: z.string(),
  requests: z.array(failedRequestSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.number().nullable(),
});
export type FailedRequestsPage = z.infer<typeof failedRequestsPageSchema>;
