// SCIM 2.0 wire pieces (RFC 7643/7644) as Entra ID's provisioning service speaks them: errors,
// the `eq` filter, PATCH operations with Entra's capitalised ops and path forms, and booleans
// that arrive as the strings "True"/"False".
import { ScimError } from "../errors";

export const SCHEMA = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  group: "urn:ietf:params:scim:schemas:core:2.0:Group",
  list: "urn:ietf:params:scim:api:messages:2.0:ListResponse",
  patch: "urn:ietf:params:scim:api:messages:2.0:PatchOp",
  error: "urn:ietf:params:scim:api:messages:2.0:Error",
  spc: "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig",
  resourceType: "urn:ietf:params:scim:schemas:core:2.0:ResourceType",
  schema: "urn:ietf:params:scim:schemas:core:2.0:Schema",
} as const;

export function errorBody(error: ScimError) {
  return {
    schemas: [SCHEMA.error],
    status: String(error.status),
    ...(error.scimType && { scimType: error.scimType }),
    detail: error.message,
  };
}

export interface EqFilter {
  attribute: string;
  value: string;
}

/** `userName eq "ada"`; anything else is refused with invalidFilter, naming what is supported. */
export function parseFilter(filter: string | null): EqFilter | null {
  if (filter === null || filter.trim() === "") return null;
  const [, attribute, value] =
    /^\s*([A-Za-z][\w.]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter) ?? [];
  if (attribute === undefined || value === undefined)
    throw new ScimError(
      400,
      `filter ${JSON.stringify(filter)} is not supported: use ATTRIBUTE eq "VALUE"`,
      "invalidFilter",
    );
  return { attribute: attribute.toLowerCase(), value: value.replace(/\\(.)/g, "$1") };
}

export interface PatchOp {
  op: "add" | "replace" | "remove";
  path: string | null;
  value: unknown;
}

export function parsePatch(body: unknown): PatchOp[] {
  const ops = (body as { Operations?: unknown })?.Operations;
  if (!Array.isArray(ops) || ops.length === 0)
    throw new ScimError(
      400,
      "a PATCH needs an Operations array with at least one operation",
      "invalidSyntax",
    );
  return ops.map((raw, index) => {
    const entry = raw as { op?: unknown; path?: unknown; value?: unknown };
    const op = typeof entry.op === "string" ? entry.op.toLowerCase() : "";
    if (op !== "add" && op !== "replace" && op !== "remove")
      throw new ScimError(
        400,
        `operation ${index + 1}: op must be Add, Replace or Remove`,
        "invalidSyntax",
      );
    if (entry.path !== undefined && typeof entry.path !== "string")
      throw new ScimError(400, `operation ${index + 1}: path must be a string`, "invalidPath");
    return { op, path: entry.path ?? null, value: entry.value };
  });
}

/** Entra sends booleans as "True"/"False" in PATCH values. */
export function asBoolean(value: unknown, what: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value))
    return value.toLowerCase() === "true";
  throw new ScimError(400, `${what} must be true or false`, "invalidValue");
}

export function asString(value: unknown, what: string, max = 1000): string {
  if (typeof value !== "string" || value.length > max)
    throw new ScimError(
      400,
      `${what} must be a string of at most ${max} characters`,
      "invalidValue",
    );
  return value;
}

/** `members[value eq "id"]` → the id; null for any other path. */
export function memberFilterPath(path: string): string | null {
  return /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i.exec(path.trim())?.[1] ?? null;
}

export function listResponse<T>(resources: T[], startIndex: number, total: number) {
  return {
    schemas: [SCHEMA.list],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

export function serviceProviderConfig(base: string) {
  return {
    schemas: [SCHEMA.spc],
    documentationUri: `${base}/docs/identity.md`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: 200 },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "Bearer token",
        description: "The SCIM token made on People → Sign-in",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string) {
  return [
    {
      schemas: [SCHEMA.resourceType],
      id: "User",
      name: "User",
      endpoint: "/Users",
      schema: SCHEMA.user,
      meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: [SCHEMA.resourceType],
      id: "Group",
      name: "Group",
      endpoint: "/Groups",
      schema: SCHEMA.group,
      meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/Group` },
    },
  ];
}

const attr = (name: string, type = "string", extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...extra,
});

export function schemas(base: string) {
  return [
    {
      schemas: [SCHEMA.schema],
      id: SCHEMA.user,
      name: "User",
      attributes: [
        attr("userName", "string", { required: true, uniqueness: "server" }),
        attr("displayName"),
        attr("externalId"),
        attr("active", "boolean"),
        attr("name", "complex", {
          subAttributes: [attr("formatted"), attr("givenName"), attr("familyName")],
        }),
        attr("emails", "complex", {
          multiValued: true,
          subAttributes: [attr("value"), attr("type"), attr("primary", "boolean")],
        }),
      ],
      meta: { resourceType: "Schema", location: `${base}/Schemas/${SCHEMA.user}` },
    },
    {
      schemas: [SCHEMA.schema],
      id: SCHEMA.group,
      name: "Group",
      attributes: [
        attr("displayName", "string", { required: true, uniqueness: "server" }),
        attr("externalId"),
        attr("members", "complex", {
          multiValued: true,
          subAttributes: [attr("value"), attr("display")],
        }),
      ],
      meta: { resourceType: "Schema", location: `${base}/Schemas/${SCHEMA.group}` },
    },
  ];
}
