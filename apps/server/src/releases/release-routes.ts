// The HTTP side of the release store: `PUT /api/releases/<file>` (admins upload, on the public
// port) and `GET /agent/v1/releases/<file>` (agents fetch, on the agent port). Refusals are JSON
// `{code, message}` with status 400 and never carry internal error text.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { UserView } from "@llmgw/api";
import { ReleaseError } from "@llmgw/release";
import { crossSiteRefusal, sessionTokenFrom } from "../http/context";
import type { EventRecorder } from "../events/event-recorder";
import type { ReleaseStore } from "./release-store";
import { sendJson } from "../http/send-json";

export const RELEASE_UPLOAD_PREFIX = "/api/releases/";
export const RELEASE_FETCH_PREFIX = "/agent/v1/releases/";

/** The signed-in admin uploading, or why the caller may not (status and body). */
async function uploaderOrRefusal(
  req: IncomingMessage,
  sessionUser: (token: string) => Promise<UserView | null>,
): Promise<UserView | { status: number; code: string; message: string }> {
  const crossSite = crossSiteRefusal(req);
  if (crossSite) return { status: 403, code: "cross-site", message: crossSite };
  const token = sessionTokenFrom(req);
  const user = token ? await sessionUser(token) : null;
  if (!user)
    return { status: 401, code: "unauthorized", message: "sign in first: no valid session" };
  if (user.role !== "admin") {
    return {
      status: 403,
      code: "forbidden",
      message: `"${user.username}" has the ${user.role} role; adding a release needs an admin`,
    };
  }
  return user;
}

export async function handleReleaseUpload(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  deps: {
    store: ReleaseStore;
    sessionUser(token: string): Promise<UserView | null>;
    events: Pick<EventRecorder, "record">;
    log(line: string): void;
  },
): Promise<void> {
  if (req.method !== "PUT") {
    res.setHeader("allow", "PUT");
    return sendJson(res, 405, {
      code: "method",
      message: `${path} takes PUT with the release as the body`,
    });
  }
  const user = await uploaderOrRefusal(req, deps.sessionUser);
  if ("status" in user)
    return sendJson(res, user.status, { code: user.code, message: user.message });
  const file = path.slice(RELEASE_UPLOAD_PREFIX.length);
  const declaredBytes = Number(req.headers["content-length"] ?? "0");
  if (declaredBytes > deps.store.bytesMax) {
    return sendJson(res, 400, {
      code: "too-large",
      message: `the release is larger than the limit of ${deps.store.bytesMax} bytes`,
    });
  }
  const sha256 = String(req.headers["x-llmgw-sha256"] ?? "");
  try {
    const stored = await deps.store.add(file, req, sha256);
    deps.log(`release ${stored.version} added by ${user.username} (${stored.sha256})`);
    deps.events.record("release.added", stored.version, {
      version: stored.version,
      by: user.username,
    });
    sendJson(res, 200, { ...stored, added: stored.added.toISOString() });
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    // The rest of a refused body is not read; closing the connection stops the sender.
    res.setHeader("connection", "close");
    sendJson(res, 400, { code: error.code, message: error.message });
  }
}

/** Streams a stored release to an agent: 404 for a name that is not a stored release file. */
export async function serveRelease(
  req: IncomingMessage,
  res: ServerResponse,
  store: ReleaseStore,
): Promise<void> {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const file = path.slice(RELEASE_FETCH_PREFIX.length);
  const found = req.method === "GET" ? await store.pathOf(file) : null;
  const stats = found ? await stat(found).catch(() => null) : null;
  if (!found || !stats) {
    return sendJson(res, 404, {
      code: "not-found",
      message: `no stored release is called ${file.slice(0, 120)}`,
    });
  }
  res.writeHead(200, { "content-type": "application/gzip", "content-length": stats.size });
  createReadStream(found).pipe(res);
}
