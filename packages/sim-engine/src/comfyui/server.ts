// The HTTP face of the simulated ComfyUI: the routes a client of ComfyUI's API uses (/prompt,
// /queue, /history, /view, /interrupt, /object_info, /system_stats, /models), with ComfyUI's
// bodies and status codes. Like ComfyUI it asks for no key; /system_stats says it is simulated.
import { messageOf } from "@llmgw/domain";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { HttpError, readJson, sendJson } from "../http-util";
import {
  addExtraModelPaths,
  defaultModelDirs,
  listModelFiles,
  MODEL_FOLDERS,
  type ModelDirs,
} from "./model-files";
import { describeClass, NODE_CLASSES } from "./node-classes";
import { createPromptQueue, type PromptQueue, type QueueItem } from "./prompt-queue";
import { validatePrompt } from "./validate";

export interface ComfySimOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Time each sampler step takes, so a 4-step prompt runs 4 × this (default 5). */
  stepMs?: number;
  /** Models are found under `<dir>/models/<folder>`. */
  baseDirectory?: string;
  extraModelPathsConfigs?: readonly string[];
  /** Shown in /system_stats' argv, as ComfyUI shows its own command line. */
  argv?: readonly string[];
}

/**
 * The model folders the options name. Without a base directory or an extra paths file, every
 * model name is accepted, so tests need no files; a malformed yaml throws naming the file.
 */
export function resolveModelDirs(options: ComfySimOptions): {
  modelDirs: ModelDirs;
  isChecked: boolean;
} {
  const modelDirs = defaultModelDirs(options.baseDirectory);
  for (const file of options.extraModelPathsConfigs ?? []) addExtraModelPaths(modelDirs, file);
  const isChecked =
    options.baseDirectory !== undefined || (options.extraModelPathsConfigs ?? []).length > 0;
  return { modelDirs, isChecked };
}

interface Sim {
  options: ComfySimOptions;
  isModelListChecked: boolean;
  queue: PromptQueue;
  listFiles: (folder: string) => string[];
}

type Handler = (
  sim: Sim,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) => Promise<void> | void;

export async function startComfySim(
  options: ComfySimOptions,
): Promise<{ url: string; close: () => Promise<void> }> {
  const { modelDirs, isChecked } = resolveModelDirs(options);
  const sim: Sim = {
    options,
    isModelListChecked: isChecked,
    queue: createPromptQueue({ stepMs: options.stepMs ?? 5 }),
    listFiles: (folder) => listModelFiles(modelDirs, folder),
  };
  const host = options.host ?? "127.0.0.1";
  const server = createServer((req, res) => void handle(sim, req, res));
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : (options.port ?? 0));
    });
  });
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: async () => {
      sim.queue.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

async function handle(sim: Sim, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://comfyui.invalid");
  const path = url.pathname.replace(/^\/api(?=\/)/, "");
  const route = routeOf(req.method ?? "GET", path);
  try {
    if (route === undefined) {
      sendJson(res, 404, {
        error: {
          type: "not_found",
          message: `no route ${req.method ?? "GET"} ${url.pathname}`,
          details: "",
          extra_info: {},
        },
      });
      return;
    }
    await route(sim, req, res, url);
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 500;
    sendJson(res, status, {
      error: { type: "invalid_request", message: messageOf(error), details: "", extra_info: {} },
    });
  }
}

function routeOf(method: string, path: string): Handler | undefined {
  const history = /^\/history\/([^/]+)$/.exec(path);
  if (history)
    return method === "GET"
      ? (sim, _req, res) => getHistoryOne(sim, res, decodeURIComponent(history[1] ?? ""))
      : undefined;
  const objectInfo = /^\/object_info\/([^/]+)$/.exec(path);
  if (objectInfo && method === "GET")
    return (sim, _req, res) => getObjectInfo(sim, res, decodeURIComponent(objectInfo[1] ?? ""));
  const models = /^\/models\/([^/]+)$/.exec(path);
  if (models && method === "GET")
    return (sim, _req, res) => getModels(sim, res, decodeURIComponent(models[1] ?? ""));
  return ROUTES[`${method} ${path}`];
}

const ROUTES: Record<string, Handler> = {
  "POST /prompt": postPrompt,
  "GET /prompt": (sim, _req, res) =>
    sendJson(res, 200, {
      exec_info: { queue_remaining: sim.queue.pending().length + (sim.queue.running() ? 1 : 0) },
    }),
  "GET /queue": (sim, _req, res) => {
    const running = sim.queue.running();
    sendJson(res, 200, {
      queue_running: running ? [queueRow(running)] : [],
      queue_pending: sim.queue.pending().map(queueRow),
    });
  },
  "POST /queue": postQueue,
  "POST /interrupt": postInterrupt,
  "GET /history": (sim, _req, res, url) => {
    const maxItems = Number(url.searchParams.get("max_items") ?? Infinity);
    const entries = [...sim.queue.allHistory()];
    sendJson(
      res,
      200,
      Object.fromEntries(
        Number.isFinite(maxItems) ? entries.slice(-Math.max(0, maxItems)) : entries,
      ),
    );
  },
  "POST /history": postHistory,
  "GET /view": getView,
  "GET /object_info": (sim, _req, res) =>
    sendJson(
      res,
      200,
      Object.fromEntries(
        Object.entries(NODE_CLASSES).map(([name, node]) => [
          name,
          describeClass(name, node, sim.listFiles),
        ]),
      ),
    ),
  "GET /system_stats": getSystemStats,
  "GET /models": (_sim, _req, res) => sendJson(res, 200, MODEL_FOLDERS),
  "GET /embeddings": (sim, _req, res) =>
    sendJson(
      res,
      200,
      sim.listFiles("embeddings").map((name) => name.replace(/\.[^.]+$/, "")),
    ),
};

const queueRow = (item: QueueItem): unknown[] => [
  item.number,
  item.promptId,
  item.graph,
  item.extraData,
  item.outputs,
];

async function readObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readJson(req);
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new HttpError(400, "request body must be a JSON object", "invalid_request");
  return body as Record<string, unknown>;
}

async function postPrompt(sim: Sim, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readObject(req);
  const promptId = body["prompt_id"];
  if (promptId !== undefined && (typeof promptId !== "string" || promptId === ""))
    throw new HttpError(400, "prompt_id must be a non-empty string", "invalid_request");
  const checked = validatePrompt(
    body["prompt"],
    sim.isModelListChecked ? sim.listFiles : undefined,
  );
  if (!checked.ok) {
    sendJson(res, 400, { error: checked.error, node_errors: checked.nodeErrors });
    return;
  }
  const extraData =
    typeof body["extra_data"] === "object" && body["extra_data"] !== null
      ? { ...(body["extra_data"] as Record<string, unknown>) }
      : {};
  if (typeof body["client_id"] === "string") extraData["client_id"] = body["client_id"];
  const item = sim.queue.enqueue(checked.graph, checked.outputs, extraData, {
    ...(typeof promptId === "string" ? { promptId } : {}),
    isFront: body["front"] === true,
  });
  sendJson(res, 200, { prompt_id: item.promptId, number: item.number, node_errors: {} });
}

async function postQueue(sim: Sim, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readObject(req);
  if (body["clear"] === true) sim.queue.clear();
  const doomed = body["delete"];
  if (doomed !== undefined) {
    if (!Array.isArray(doomed) || !doomed.every((id) => typeof id === "string"))
      throw new HttpError(400, "delete must be a list of prompt ids", "invalid_request");
    sim.queue.delete(doomed);
  }
  res.writeHead(200).end();
}

async function postInterrupt(sim: Sim, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const hasBody =
    req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0";
  const body = hasBody ? await readObject(req) : {};
  const promptId = body["prompt_id"];
  sim.queue.interrupt(typeof promptId === "string" ? promptId : undefined);
  res.writeHead(200).end();
}

async function postHistory(sim: Sim, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readObject(req);
  if (body["clear"] === true) sim.queue.clearHistory();
  if (Array.isArray(body["delete"])) for (const id of body["delete"]) sim.queue.forget(String(id));
  res.writeHead(200).end();
}

function getHistoryOne(sim: Sim, res: ServerResponse, promptId: string): void {
  const entry = sim.queue.history(promptId);
  sendJson(res, 200, entry ? { [promptId]: entry } : {});
}

function getView(sim: Sim, _req: IncomingMessage, res: ServerResponse, url: URL): void {
  const filename = url.searchParams.get("filename") ?? "";
  const subfolder = url.searchParams.get("subfolder") ?? "";
  const type = url.searchParams.get("type") ?? "output";
  // ComfyUI answers 400 for a name that could leave its folder and 403 for such a subfolder.
  if (
    filename === "" ||
    filename.startsWith("/") ||
    filename.includes("..") ||
    filename.includes("\\")
  ) {
    res.writeHead(400).end();
    return;
  }
  if (subfolder.startsWith("/") || subfolder.split(/[/\\]/).includes("..")) {
    res.writeHead(403).end();
    return;
  }
  const picture =
    type === "output" || type === "temp"
      ? sim.queue.picture({ filename, subfolder, type })
      : undefined;
  if (picture === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, {
    "content-type": "image/png",
    "content-length": picture.png.length,
    "content-disposition": `filename="${filename}"`,
  });
  res.end(picture.png);
}

function getObjectInfo(sim: Sim, res: ServerResponse, name: string): void {
  const node = NODE_CLASSES[name];
  sendJson(res, 200, node ? { [name]: describeClass(name, node, sim.listFiles) } : {});
}

function getModels(sim: Sim, res: ServerResponse, folder: string): void {
  if (!(MODEL_FOLDERS as readonly string[]).includes(folder)) {
    sendJson(res, 404, {
      error: {
        type: "not_found",
        message: `no model folder "${folder}"`,
        details: "",
        extra_info: {},
      },
    });
    return;
  }
  sendJson(res, 200, sim.listFiles(folder));
}

function getSystemStats(sim: Sim, _req: IncomingMessage, res: ServerResponse): void {
  sendJson(res, 200, {
    simulated: true,
    system: {
      os: process.platform,
      comfyui_version: "simulated",
      python_version: "none (llmgw sim-comfyui)",
      pytorch_version: "none",
      embedded_python: false,
      argv: ["llmgw", "sim-comfyui", ...(sim.options.argv ?? [])],
      ram_total: 0,
      ram_free: 0,
    },
    devices: [
      {
        name: "simulated",
        type: "cpu",
        index: 0,
        vram_total: 0,
        vram_free: 0,
        torch_vram_total: 0,
        torch_vram_free: 0,
      },
    ],
  });
}
