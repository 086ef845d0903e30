// The gate's HTTP face on the replica's port: every request must carry the replica key, and only
// the calls the llmgw router makes reach ComfyUI — queueing a workflow, reading the queue and a
// prompt's history, fetching a picture, taking a prompt off the queue, interrupting. Uploads,
// settings, the manager, the websocket and everything else ComfyUI serves are refused here.
import { messageOf } from "@llmgw/domain";
import { constantTimeEqual } from "@llmgw/secrets";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

const BODY_LIMIT_BYTES = 8 * 1024 * 1024;
const PROMPT_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const CLASS_NAME_PATTERN = /^[A-Za-z0-9_+. -]{1,128}$/;
const VIEW_TYPES = new Set(["output", "temp"]);

export interface GateServerOptions {
  apiKey: string;
  servedModelName: string;
  /** ComfyUI on the loopback, e.g. http://127.0.0.1:41234. */
  upstreamUrl: string;
  isUpstreamUp: () => Promise<boolean>;
  log: (line: string) => void;
}

class GateError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** What goes to ComfyUI: a path with its query, and a body when the call has one. */
interface Upstream {
  method: "GET" | "POST";
  path: string;
  body?: string;
}
type Route = (req: IncomingMessage, url: URL) => Promise<Upstream> | Upstream;

export function createGateServer(options: GateServerOptions): Server {
  return createServer((req, res) => void handle(options, req, res));
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

function isAuthorised(req: IncomingMessage, apiKey: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  return match?.[1] !== undefined && constantTimeEqual(match[1], apiKey);
}

async function handle(
  options: GateServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    if (!isAuthorised(req, options.apiKey))
      throw new GateError(
        401,
        "this replica needs its key: send Authorization: Bearer <replica key>",
        "authentication_error",
        {
          "www-authenticate": "Bearer",
        },
      );
    const url = new URL(req.url ?? "/", "http://gate.invalid");
    const method = req.method ?? "GET";
    if (url.pathname === "/health" && method === "GET") {
      const isUp = await options.isUpstreamUp();
      sendJson(res, isUp ? 200 : 503, { status: isUp ? "ok" : "ComfyUI is not answering yet" });
      return;
    }
    if (url.pathname === "/v1/models" && method === "GET") {
      const model = {
        id: options.servedModelName,
        object: "model",
        created: 0,
        owned_by: "comfyui",
      };
      sendJson(res, 200, { object: "list", data: [model] });
      return;
    }
    const upstream = await routeOf(method, url.pathname)(req, url);
    await forward(options, upstream, res);
  } catch (error) {
    if (!(error instanceof GateError))
      options.log(
        `comfyui-gate: ${req.method ?? "?"} ${req.url ?? "?"} failed: ${messageOf(error)}`,
      );
    const gateError =
      error instanceof GateError
        ? error
        : new GateError(502, "ComfyUI did not answer", "upstream_error");
    sendJson(
      res,
      gateError.status,
      { error: { message: gateError.message, type: gateError.type } },
      gateError.headers,
    );
  }
}

const ROUTES: Record<string, Partial<Record<string, Route>>> = {
  "/prompt": {
    POST: async (req) => ({
      method: "POST",
      path: "/prompt",
      body: JSON.stringify(await readObject(req)),
    }),
  },
  "/queue": { GET: () => ({ method: "GET", path: "/queue" }), POST: queueDelete },
  "/interrupt": { POST: interrupt },
  "/view": { GET: (_req, url) => ({ method: "GET", path: `/view?${viewQuery(url)}` }) },
  "/object_info": { GET: () => ({ method: "GET", path: "/object_info" }) },
};

function routeOf(method: string, path: string): Route {
  const history = /^\/history\/([^/]+)$/.exec(path);
  const objectInfo = /^\/object_info\/([^/]+)$/.exec(path);
  const routes: Partial<Record<string, Route>> | undefined = history
    ? {
        GET: () => ({
          method: "GET",
          path: `/history/${encodeURIComponent(checked(history[1], PROMPT_ID_PATTERN, "prompt id"))}`,
        }),
      }
    : objectInfo
      ? {
          GET: () => ({
            method: "GET",
            path: `/object_info/${encodeURIComponent(checked(objectInfo[1], CLASS_NAME_PATTERN, "node class"))}`,
          }),
        }
      : Object.hasOwn(ROUTES, path)
        ? ROUTES[path]
        : undefined;
  if (routes === undefined)
    throw new GateError(
      404,
      `${path} is not let through to ComfyUI; the gate serves /prompt, /queue, /history/ID, /view, /interrupt, /object_info, /health and /v1/models`,
      "not_found",
    );
  const route = routes[method];
  if (route === undefined)
    throw new GateError(
      405,
      `${method} ${path} is not let through; use ${Object.keys(routes).join(" or ")}`,
      "method_not_allowed",
      {
        allow: Object.keys(routes).join(", "),
      },
    );
  return route;
}

function checked(raw: string | undefined, pattern: RegExp, what: string): string {
  const value = decodeURIComponent(raw ?? "");
  if (!pattern.test(value))
    throw new GateError(
      400,
      `${JSON.stringify(value)} is not a valid ${what}`,
      "invalid_request_error",
    );
  return value;
}

/** Rebuilds /view's query from the three parameters it needs, refusing names that leave the folder. */
function viewQuery(url: URL): string {
  const filename = url.searchParams.get("filename") ?? "";
  const subfolder = url.searchParams.get("subfolder") ?? "";
  const type = url.searchParams.get("type") ?? "output";
  const leaves = (path: string): boolean =>
    path.startsWith("/") ||
    path.includes("\\") ||
    path.includes("\0") ||
    path.split("/").includes("..");
  if (filename === "" || filename.includes("/") || leaves(filename))
    throw new GateError(
      400,
      "filename must name a file in the folder, without / or ..",
      "invalid_request_error",
    );
  if (leaves(subfolder))
    throw new GateError(
      400,
      "subfolder must stay inside ComfyUI's output folder (no .. or leading /)",
      "invalid_request_error",
    );
  if (!VIEW_TYPES.has(type))
    throw new GateError(
      400,
      `type must be output or temp, not ${JSON.stringify(type)}`,
      "invalid_request_error",
    );
  return new URLSearchParams({ filename, subfolder, type }).toString();
}

async function queueDelete(req: IncomingMessage): Promise<Upstream> {
  const body = await readObject(req);
  const ids = body["delete"];
  const isOnlyDelete = Object.keys(body).length === 1 && Array.isArray(ids);
  if (!isOnlyDelete || !ids.every((id) => typeof id === "string" && PROMPT_ID_PATTERN.test(id)))
    throw new GateError(
      400,
      'POST /queue lets through only {"delete": [prompt ids]}',
      "invalid_request_error",
    );
  return { method: "POST", path: "/queue", body: JSON.stringify({ delete: ids }) };
}

async function interrupt(req: IncomingMessage): Promise<Upstream> {
  const hasBody =
    (req.headers["content-length"] ?? "0") !== "0" ||
    req.headers["transfer-encoding"] !== undefined;
  const body = hasBody ? await readObject(req) : {};
  const promptId = body["prompt_id"];
  if (promptId === undefined) return { method: "POST", path: "/interrupt", body: "{}" };
  if (typeof promptId !== "string" || !PROMPT_ID_PATTERN.test(promptId))
    throw new GateError(400, "prompt_id must be a prompt id", "invalid_request_error");
  return { method: "POST", path: "/interrupt", body: JSON.stringify({ prompt_id: promptId }) };
}

async function readObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES)
      throw new GateError(
        413,
        `request body is over ${BODY_LIMIT_BYTES} bytes`,
        "invalid_request_error",
      );
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new GateError(400, "request body must be a JSON object", "invalid_request_error");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new GateError(400, "request body must be a JSON object", "invalid_request_error");
  return body as Record<string, unknown>;
}

async function forward(
  options: GateServerOptions,
  upstream: Upstream,
  res: ServerResponse,
): Promise<void> {
  const response = await fetch(`${options.upstreamUrl}${upstream.path}`, {
    method: upstream.method,
    ...(upstream.body === undefined
      ? {}
      : { body: upstream.body, headers: { "content-type": "application/json" } }),
  });
  const body = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get("content-type");
  res.writeHead(response.status, {
    ...(contentType === null ? {} : { "content-type": contentType }),
    "content-length": body.length,
  });
  res.end(body);
}
