// What a route handler gets: the request, the engine's state, and a signal that fires when the
// client leaves or the engine shuts down, so a generation stops and gives its slot back.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { SimEngineConfig } from "./config";
import type { EngineLoad } from "./load";

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  config: SimEngineConfig;
  load: EngineLoad;
  signal: AbortSignal;
  /** Sent with every response (X-Request-Id). */
  responseHeaders: Record<string, string>;
  readBody(): Promise<unknown>;
  /** Throws a 404 in vLLM's words unless `model` is the one served. */
  requireModel(model: string | undefined): void;
}
