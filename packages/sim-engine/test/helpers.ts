// Starts the simulator as a real process through its bin file and finds the port it printed.
import { fileURLToPath } from "node:url";
import { spawnProcess, type SpawnedProcess } from "@llmgw/testing";

export const SIM_BIN = fileURLToPath(new URL("../bin/sim-engine.mjs", import.meta.url));
export const KEY = "test-replica-key-0123456789";

export interface RunningSim {
  proc: SpawnedProcess;
  baseUrl: string;
}

export async function startSim(
  args: readonly string[],
  env: Record<string, string | undefined> = { SIM_ENGINE_API_KEY: KEY },
): Promise<RunningSim> {
  const proc = spawnProcess(process.execPath, [SIM_BIN, "--port", "0", ...args], {
    name: "sim-engine",
    env: { SIM_ENGINE_API_KEY: undefined, VLLM_API_KEY: undefined, ...env },
  });
  const match = await proc.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/, 30_000);
  return { proc, baseUrl: match[1] ?? "" };
}

export function authHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${KEY}`, "content-type": "application/json", ...extra };
}

export async function postJson(
  baseUrl: string,
  path: string,
  body: unknown,
  headers = authHeaders(),
): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
}

/** Reads an SSE body into its `data:` payloads; `error` is set if the connection broke first. */
export async function readSse(response: Response): Promise<{ events: string[]; error?: unknown }> {
  const events: string[] = [];
  let buffer = "";
  const decoder = new TextDecoder();
  try {
    for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(part, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (event.startsWith("data: ")) events.push(event.slice(6));
      }
    }
  } catch (error) {
    return { events, error };
  }
  return { events };
}
