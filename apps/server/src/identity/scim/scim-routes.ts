// /scim/v2: the SCIM endpoint Entra ID (or any provisioning client) calls with the bearer token
// made on People → Sign-in. Only the token's SHA-256 is stored; answers are application/scim+json;
// every refusal is a SCIM error with a 4xx status, never a 500.
import { messageOf } from "@llmgw/domain";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database } from "@llmgw/db";
import { constantTimeEqual, sha256Hex } from "@llmgw/secrets";
import { SCIM_KEY, writeSetting, type SignInStore } from "../sign-in-settings";
import {
  errorBody,
  listResponse,
  parseFilter,
  resourceTypes,
  schemas,
  serviceProviderConfig,
} from "./scim-protocol";
import { ScimError } from "../errors";
import {
  createScimGroup,
  deleteScimGroup,
  findScimGroup,
  groupResource,
  listScimGroups,
  patchScimGroup,
  replaceScimGroup,
} from "./scim-groups";
import {
  createScimUser,
  deleteScimUser,
  fieldsFromPatch,
  fieldsFromResource,
  findScimUser,
  listScimUsers,
  updateScimUser,
  userResource,
} from "./scim-users";

const SCIM_PATH = "/scim/v2";
const BODY_BYTES_MAX = 1_048_576;
const PAGE_MAX = 200;

function send(res: ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, { "content-type": "application/scim+json" });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_BYTES_MAX)
      throw new ScimError(413, `the body is larger than ${BODY_BYTES_MAX} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new ScimError(400, "the body is not valid JSON", "invalidSyntax");
  }
}

async function authorise(req: IncomingMessage, store: SignInStore): Promise<void> {
  const header = req.headers.authorization ?? "";
  const presented = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  const { tokenHash } = await store.scim();
  if (!tokenHash)
    throw new ScimError(401, "SCIM is not set up: an admin makes a token on People → Sign-in");
  if (!presented || !constantTimeEqual(sha256Hex(presented), tokenHash))
    throw new ScimError(401, "the bearer token is missing or not the SCIM token");
}

function page(url: URL) {
  const startIndex = Math.max(
    1,
    Number.parseInt(url.searchParams.get("startIndex") ?? "1", 10) || 1,
  );
  const count = Math.min(
    PAGE_MAX,
    Math.max(0, Number.parseInt(url.searchParams.get("count") ?? `${PAGE_MAX}`, 10) || 0),
  );
  return { startIndex, count };
}

async function route(
  db: Database,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  base: string,
) {
  const [, kind, id, extra] = url.pathname.slice(SCIM_PATH.length).split("/");
  const method = req.method ?? "GET";
  if (extra !== undefined) throw new ScimError(404, `no SCIM resource at ${url.pathname}`);
  if (kind === "ServiceProviderConfig" && method === "GET")
    return send(res, 200, serviceProviderConfig(base));
  if (kind === "ResourceTypes" && method === "GET") {
    const all = resourceTypes(base);
    return id
      ? send(res, 200, all.find((r) => r.id === id) ?? notFound(url))
      : send(res, 200, listResponse(all, 1, all.length));
  }
  if (kind === "Schemas" && method === "GET") {
    const all = schemas(base);
    return id
      ? send(res, 200, all.find((s) => s.id === id) ?? notFound(url))
      : send(res, 200, listResponse(all, 1, all.length));
  }
  if (kind === "Users") return users(db, req, res, url, base, method, id);
  if (kind === "Groups") return groupsRoute(db, req, res, url, base, method, id);
  throw new ScimError(404, `no SCIM resource at ${url.pathname}`);
}

function notFound(url: URL): never {
  throw new ScimError(404, `no SCIM resource at ${url.pathname}`);
}

function methodNotAllowed(method: string, what: string): never {
  throw new ScimError(405, `${method} is not supported on ${what}`);
}

/** The page of `rows` the request's startIndex and count ask for, as a SCIM list response. */
async function listPage<Row, Resource>(
  url: URL,
  rows: readonly Row[],
  toResource: (row: Row) => Resource | Promise<Resource>,
) {
  const { startIndex, count } = page(url);
  const slice = rows.slice(startIndex - 1, startIndex - 1 + count);
  return listResponse(await Promise.all(slice.map(toResource)), startIndex, rows.length);
}

async function users(
  db: Database,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  base: string,
  method: string,
  id?: string,
) {
  if (!id) {
    if (method === "GET") {
      const rows = await listScimUsers(db, parseFilter(url.searchParams.get("filter")));
      return send(res, 200, await listPage(url, rows, (u) => userResource(u, base)));
    }
    if (method === "POST")
      return send(
        res,
        201,
        userResource(await createScimUser(db, fieldsFromResource(await readJson(req))), base),
      );
    return methodNotAllowed(method, "/Users");
  }
  if (method === "GET") return send(res, 200, userResource(await findScimUser(db, id), base));
  if (method === "PATCH")
    return send(
      res,
      200,
      userResource(await updateScimUser(db, id, fieldsFromPatch(await readJson(req))), base),
    );
  if (method === "PUT")
    return send(
      res,
      200,
      userResource(await updateScimUser(db, id, fieldsFromResource(await readJson(req))), base),
    );
  if (method === "DELETE") {
    await deleteScimUser(db, id);
    return send(res, 204);
  }
  return methodNotAllowed(method, "/Users/{id}");
}

async function groupsRoute(
  db: Database,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  base: string,
  method: string,
  id?: string,
) {
  const withMembers = !(url.searchParams.get("excludedAttributes") ?? "")
    .toLowerCase()
    .includes("members");
  if (!id) {
    if (method === "GET") {
      const rows = await listScimGroups(db, parseFilter(url.searchParams.get("filter")));
      const toResource = (g: (typeof rows)[number]) => groupResource(db, g, base, withMembers);
      return send(res, 200, await listPage(url, rows, toResource));
    }
    if (method === "POST")
      return send(
        res,
        201,
        await groupResource(db, await createScimGroup(db, await readJson(req)), base),
      );
    return methodNotAllowed(method, "/Groups");
  }
  if (method === "GET")
    return send(res, 200, await groupResource(db, await findScimGroup(db, id), base, withMembers));
  if (method === "PATCH") {
    await patchScimGroup(db, id, await readJson(req));
    return send(res, 204);
  }
  if (method === "PUT")
    return send(
      res,
      200,
      await groupResource(db, await replaceScimGroup(db, id, await readJson(req)), base),
    );
  if (method === "DELETE") {
    await deleteScimGroup(db, id);
    return send(res, 204);
  }
  return methodNotAllowed(method, "/Groups/{id}");
}

const CHANGES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export async function handleScim(
  req: IncomingMessage,
  res: ServerResponse,
  options: { store: SignInStore; origin: string; nowMs(): number; log(line: string): void },
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://internal");
  try {
    await authorise(req, options.store);
    await route(options.store.db, req, res, url, `${options.origin}${SCIM_PATH}`);
    if (CHANGES.has(req.method ?? "")) {
      const current = await options.store.scim();
      await writeSetting(options.store.db, SCIM_KEY, {
        ...current,
        lastSyncAt: new Date(options.nowMs()).toISOString(),
      });
    }
  } catch (error) {
    if (error instanceof ScimError) return send(res, error.status, errorBody(error));
    options.log(`SCIM ${req.method} ${url.pathname} failed: ${messageOf(error)}`);
    send(
      res,
      400,
      errorBody(
        new ScimError(400, "the request could not be carried out; check the body and try again"),
      ),
    );
  }
}
