// The agent port's routes for certificates: the CA (so a joining node can pin it by fingerprint),
// joining (a join token and a CSR for a node certificate) and renewal (a valid node certificate
// and a CSR for a fresh one). Refusals answer `{code, message}`; a refused token gets one sentence
// whatever was wrong with it, and the server log says which.
import { z } from "zod";
import { csrCommonName } from "@llmgw/pki";
import { messageOf } from "@llmgw/domain";
import { readJsonBody, type AgentRequest, type AgentRoute } from "../agents/agent-http";
import { sendJson } from "../http/send-json";
import type { JoinTokens } from "./join-tokens";
import type { NodeCertificates } from "./node-certificates";

const JOIN_BODY_BYTES_MAX = 64 * 1024;
const NODE_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

const joinBodySchema = z.object({
  token: z.string({ message: "token is required" }).min(1, "token is required").max(200),
  csr: z.string({ message: "csr is required (a PEM certificate request)" }).min(1).max(16_384),
  nodeName: z.string({ message: "nodeName is required" }).min(1).max(253),
});
const renewBodySchema = z.object({
  csr: z.string({ message: "csr is required (a PEM certificate request)" }).min(1).max(16_384),
});

export interface CertificateRoutesOptions {
  caCertPem: string;
  tokens: Pick<JoinTokens, "check" | "spend">;
  certificates: NodeCertificates;
  /** Every live control plane's agent addresses, told to a joining node so it knows them all. */
  agentUrls?(): readonly string[];
  log(line: string): void;
}

export function certificateRoutes(options: CertificateRoutesOptions): AgentRoute[] {
  return [
    {
      method: "GET",
      path: "/agent/v1/ca",
      access: "open",
      handle: ({ res }) => {
        res.writeHead(200, { "content-type": "application/x-pem-file" }).end(options.caCertPem);
      },
    },
    { method: "POST", path: "/agent/v1/join", access: "open", handle: (r) => join(options, r) },
    {
      method: "POST",
      path: "/agent/v1/renew",
      access: "node",
      handle: (r, nodeId) => renew(options, r, nodeId ?? ""),
    },
  ];
}

type Parsed<T> = { ok: true; value: T } | { ok: false };

async function parseBody<T>(request: AgentRequest, schema: z.ZodType<T>): Promise<Parsed<T>> {
  const body = await readJsonBody(request.req, JOIN_BODY_BYTES_MAX);
  if (!body.ok) {
    sendJson(request.res, body.status, { code: "invalid", message: body.message });
    return { ok: false };
  }
  const parsed = schema.safeParse(body.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path.join(".") ?? "";
  const message = issue ? `${field ? `${field}: ` : ""}${issue.message}` : "bad input";
  sendJson(request.res, 400, { code: "invalid", field, message });
  return { ok: false };
}

/** The CSR's common name, or a 400 naming the csr field. */
async function csrNodeId(request: AgentRequest, csrPem: string): Promise<string | null> {
  try {
    const cn = await csrCommonName(csrPem);
    if (NODE_ID_PATTERN.test(cn)) return cn;
    sendJson(request.res, 400, {
      code: "invalid",
      field: "csr",
      message: "csr: its common name must be the node id: 1-128 characters of A-Z a-z 0-9 . _ : -",
    });
  } catch (error) {
    sendJson(request.res, 400, {
      code: "invalid",
      field: "csr",
      message: `csr: ${messageOf(error)}`,
    });
  }
  return null;
}

const TOKEN_REFUSED = {
  code: "token_refused",
  message: "the join token was refused: ask an admin for a new one (llmgw ctl join-tokens create)",
};

async function join(options: CertificateRoutesOptions, request: AgentRequest): Promise<void> {
  const body = await parseBody(request, joinBodySchema);
  if (!body.ok) return;
  const { token, csr, nodeName } = body.value;
  const checked = await options.tokens.check(token);
  if (!checked.ok) {
    options.log(`agent port: join from ${request.address} refused: the token is ${checked.why}`);
    return sendJson(request.res, 401, TOKEN_REFUSED);
  }
  const nodeId = await csrNodeId(request, csr);
  if (nodeId === null) return;
  if (options.certificates.hasValidCertificate(nodeId)) {
    options.log(
      `agent port: join from ${request.address} refused: node ${nodeId} already holds a certificate`,
    );
    return sendJson(request.res, 409, {
      code: "node_taken",
      message: `node ${nodeId} already holds a valid certificate: a node cannot join under another's id (remove it first: llmgw ctl nodes remove ${nodeId})`,
    });
  }
  const spent = await options.tokens.spend(checked.id);
  if (!spent.ok) {
    options.log(
      `agent port: join from ${request.address} refused: the token ${checked.id} is used up`,
    );
    return sendJson(request.res, 401, TOKEN_REFUSED);
  }
  const issued = await options.certificates.issue(nodeId, csr);
  options.log(
    `agent port: node ${nodeName} (${nodeId}) joined from ${request.address} with token ${checked.id}`,
  );
  const agentUrls = options.agentUrls?.() ?? [];
  sendJson(request.res, 200, {
    nodeId,
    certificate: issued.certPem,
    ca: options.caCertPem,
    agentUrls,
  });
}

async function renew(
  options: CertificateRoutesOptions,
  request: AgentRequest,
  nodeId: string,
): Promise<void> {
  const body = await parseBody(request, renewBodySchema);
  if (!body.ok) return;
  const csrId = await csrNodeId(request, body.value.csr);
  if (csrId === null) return;
  if (csrId !== nodeId)
    return sendJson(request.res, 400, {
      code: "invalid",
      field: "csr",
      message: `csr: it names ${csrId}, but this certificate belongs to ${nodeId}`,
    });
  const issued = await options.certificates.issue(nodeId, body.value.csr);
  options.log(
    `agent port: renewed the certificate of node ${nodeId} (valid until ${new Date(issued.notAfterMs).toISOString()})`,
  );
  sendJson(request.res, 200, { certificate: issued.certPem });
}
