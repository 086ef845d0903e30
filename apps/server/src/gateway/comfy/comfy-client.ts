// ComfyUI's HTTP API as the router uses it, against a replica's gate (with the replica key) or an
// external ComfyUI server: queue a graph, read its history, fetch a picture, read the queue, take
// a graph off it, interrupt the running one. Every call is bounded by its signal; answers are
// read as data and never passed to a client as they came.
import { messageOf } from "@llmgw/domain";
import { request, type Dispatcher } from "undici";

export interface ComfyTarget {
  agent: Dispatcher;
  baseUrl: string;
  /** The replica key or the server's key; "" sends none (a ComfyUI server asks for none). */
  key: string;
  requestId: string;
}

export type ComfyAnswer =
  | { kind: "answer"; status: number; json: unknown }
  | { kind: "unreachable"; message: string; code: string | undefined };

/** A history or queue answer larger than this is not ComfyUI's. */
const JSON_BYTES_MAX = 8 * 1024 * 1024;
/** One picture; a 2048×2048 PNG is well under it. */
const IMAGE_BYTES_MAX = 64 * 1024 * 1024;

function headersOf(target: ComfyTarget, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { "x-request-id": target.requestId };
  if (target.key !== "") headers.authorization = `Bearer ${target.key}`;
  if (hasBody) headers["content-type"] = "application/json";
  return headers;
}

function unreachable(error: unknown): ComfyAnswer {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = (error as { code?: unknown }).code ?? cause?.code;
  return {
    kind: "unreachable",
    message: messageOf(error),
    code: typeof code === "string" ? code : undefined,
  };
}

async function readCapped(
  body: Dispatcher.ResponseData["body"],
  bytesMax: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > bytesMax) {
      body.destroy();
      throw new Error(`the answer is larger than ${bytesMax} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A JSON call; an answer that is not JSON reads as `null` (its status still tells). */
export async function comfyJson(
  target: ComfyTarget,
  method: "GET" | "POST",
  path: string,
  body: unknown,
  signal: AbortSignal,
): Promise<ComfyAnswer> {
  try {
    const answer = await request(`${target.baseUrl}${path}`, {
      dispatcher: target.agent,
      method,
      headers: headersOf(target, body !== undefined),
      body: body === undefined ? null : JSON.stringify(body),
      signal,
    });
    const raw = await readCapped(answer.body, JSON_BYTES_MAX);
    let json: unknown = null;
    try {
      json = JSON.parse(raw.toString("utf8"));
    } catch {
      json = null;
    }
    return { kind: "answer", status: answer.statusCode, json };
  } catch (error) {
    return unreachable(error);
  }
}

export interface ImageRef {
  filename: string;
  subfolder: string;
  type: string;
}

/** A saved picture's bytes from `/view`. */
export async function comfyView(
  target: ComfyTarget,
  image: ImageRef,
  signal: AbortSignal,
): Promise<Buffer> {
  const query = new URLSearchParams({ ...image });
  const answer = await request(`${target.baseUrl}/view?${query.toString()}`, {
    dispatcher: target.agent,
    method: "GET",
    headers: headersOf(target, false),
    signal,
  });
  if (answer.statusCode !== 200) {
    await answer.body.dump().catch(() => undefined);
    throw new Error(`/view answered ${answer.statusCode} for picture ${image.filename}`);
  }
  return readCapped(answer.body, IMAGE_BYTES_MAX);
}
