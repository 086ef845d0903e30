// MCP servers in the store: building a row from a form (sealing the credential), merging a
// change, opening the headers for a call, and the view the API answers (never a sealed value).
import {
  ServiceError,
  type McpAddServerInput,
  type McpCredential,
  type McpGrantView,
  type McpServerView,
  type McpUpdateServerInput,
} from "@llmgw/api";
import type { McpGrantRow, McpHeaderRow, McpServerRow } from "@llmgw/db";
import { ADMIN_MCP_SERVER } from "@llmgw/domain";
import { seal, unseal } from "../seal/seal";
import { checkMcpAddress } from "./address";
import type { McpRuntime } from "./runtime";

/** The built-in server's address: answered in this process, it cannot be moved. */
const ADMIN_MCP_URL = "llmgw:admin";

export interface SealingDeps {
  masterKey: Uint8Array;
  isPrivateAllowed: boolean;
}

const sealName = (server: string, header: string) => `mcp:${server}:${header.toLowerCase()}`;

function credentialHeader(credential: McpCredential): { name: string; value: string } {
  return "bearer" in credential
    ? { name: "Authorization", value: `Bearer ${credential.bearer}` }
    : credential.secretHeader;
}

export function sealedHeader(
  deps: SealingDeps,
  server: string,
  credential: McpCredential,
): McpHeaderRow {
  const { name, value } = credentialHeader(credential);
  const sealed = seal(deps.masterKey, sealName(server, name), Buffer.from(value, "utf8"));
  return { name, value: sealed, isSealed: true };
}

/** The address a server is kept under, refused as the guard says; fixed for llmgw:admin. */
function checkedUrl(deps: SealingDeps, name: string, url: string | undefined): string {
  if (name === ADMIN_MCP_SERVER) {
    if (url !== undefined && url !== "" && url !== ADMIN_MCP_URL)
      throw new ServiceError(
        "invalid",
        `${ADMIN_MCP_SERVER} is answered inside the gateway; its address cannot be moved`,
        { code: "mcp.admin_address_fixed", params: { server: ADMIN_MCP_SERVER } },
      );
    return ADMIN_MCP_URL;
  }
  if (!url)
    throw new ServiceError("invalid", `server "${name}" needs an address (--url)`, {
      code: "mcp.address_required",
      params: { name },
    });
  return checkMcpAddress(url, deps.isPrivateAllowed).href;
}

export function newServerRow(
  deps: SealingDeps,
  input: McpAddServerInput,
  createdBy: string,
  now: Date,
): McpServerRow {
  const isAdmin = input.name === ADMIN_MCP_SERVER;
  if (isAdmin && (input.credential || (input.headers ?? []).length > 0))
    throw new ServiceError(
      "invalid",
      `${ADMIN_MCP_SERVER} is answered inside the gateway and takes no token or headers`,
      { code: "mcp.admin_no_credential", params: { server: ADMIN_MCP_SERVER } },
    );
  const headers: McpHeaderRow[] = (input.headers ?? []).map((h) => ({ ...h, isSealed: false }));
  if (input.credential) headers.push(sealedHeader(deps, input.name, input.credential));
  checkHeaderNames(headers);
  return {
    name: input.name,
    url: checkedUrl(deps, input.name, input.url),
    description: input.description || null,
    timeoutMs: input.timeoutMs ?? null,
    callsPerMinute: input.callsPerMinute ?? null,
    headers,
    isEnabled: input.enabled ?? true,
    createdBy,
    createdAt: now,
    updatedAt: now,
  };
}

/** A change: absent fields stay as they were; null or an empty description clears. */
export function mergeServer(
  deps: SealingDeps,
  row: McpServerRow,
  change: McpUpdateServerInput,
  now: Date,
): McpServerRow {
  if (row.name === ADMIN_MCP_SERVER && change.headers && change.headers.length > 0)
    throw new ServiceError("invalid", `${ADMIN_MCP_SERVER} takes no headers`, {
      code: "mcp.admin_no_headers",
      params: { server: ADMIN_MCP_SERVER },
    });
  const headers = change.headers
    ? [
        ...change.headers.map((h) => ({ ...h, isSealed: false })),
        ...row.headers.filter((h) => h.isSealed),
      ]
    : row.headers;
  checkHeaderNames(headers);
  return {
    ...row,
    url: change.url === undefined ? row.url : checkedUrl(deps, row.name, change.url),
    description: change.description === undefined ? row.description : change.description || null,
    timeoutMs: change.timeoutMs === undefined ? row.timeoutMs : change.timeoutMs,
    callsPerMinute:
      change.callsPerMinute === undefined ? row.callsPerMinute : change.callsPerMinute,
    headers,
    updatedAt: now,
  };
}

function checkHeaderNames(headers: readonly McpHeaderRow[]): void {
  const seen = new Set<string>();
  for (const header of headers) {
    const lower = header.name.toLowerCase();
    if (seen.has(lower))
      throw new ServiceError(
        "invalid",
        `header ${header.name} is given twice (the credential is one of the headers)`,
        { code: "mcp.header_twice", params: { header: header.name } },
      );
    seen.add(lower);
  }
}

/** The headers as sent upstream, sealed ones opened. Only the call path uses this. */
export function openHeaders(deps: SealingDeps, row: McpServerRow): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const header of row.headers) {
    headers[header.name] = header.isSealed
      ? unseal(deps.masterKey, sealName(row.name, header.name), header.value).toString("utf8")
      : header.value;
  }
  return headers;
}

/** Header names with sealed ones marked, for audit lines. */
export function headerNames(row: McpServerRow): string[] {
  return row.headers.map((h) => (h.isSealed ? `${h.name} (sealed)` : h.name));
}

export function grantView(row: McpGrantRow): McpGrantView {
  return {
    subject: row.subject,
    server: row.server,
    tools: row.tools,
    isClosed: row.tools.length === 0,
    grantedBy: row.grantedBy,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function serverView(
  row: McpServerRow,
  grants: readonly McpGrantRow[],
  runtime: McpRuntime,
): McpServerView {
  const isOut = runtime.isOut(row.name);
  return {
    name: row.name,
    url: row.url,
    description: row.description,
    timeoutMs: row.timeoutMs,
    callsPerMinute: row.callsPerMinute,
    headers: row.headers.map((h) => ({
      name: h.name,
      isSealed: h.isSealed,
      value: h.isSealed ? null : h.value,
    })),
    isBuiltIn: row.name === ADMIN_MCP_SERVER,
    state: !row.isEnabled ? "disabled" : isOut ? "out" : "enabled",
    outForMs: isOut ? runtime.outForMs(row.name) : 0,
    grants: grants.filter((g) => g.server === row.name).map(grantView),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
