// The shared process harness from @llmgw/testing, plus a typed tRPC client to look at what the
// server sees.
import { createTRPCClient, httpLink } from "@trpc/client";
import type { AppRouter } from "@llmgw/api";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ADMIN_PASSWORD, tempDir } from "@llmgw/testing";

export {
  ADMIN_PASSWORD,
  JOIN_TOKEN,
  serverSetup,
  startAgent,
  startServer,
  type ServerHandle,
  type ServerSetup,
} from "@llmgw/testing";

/** A client without a browser; `token` absent or null calls anonymously. */
export function apiClient(apiUrl: string, token: string | null | undefined) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${apiUrl}/api/trpc`,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}

/** Signs in without a browser, which is answered the session token itself (a browser is not). */
export async function sessionToken(apiUrl: string, username: string, password: string) {
  const { token } = await apiClient(apiUrl, null).auth.login.mutate({ username, password });
  if (!token) throw new Error(`signing in as ${username} answered no session token`);
  return token;
}

export async function signIn(apiUrl: string) {
  return apiClient(apiUrl, await sessionToken(apiUrl, "admin", ADMIN_PASSWORD));
}

export type Api = Awaited<ReturnType<typeof signIn>>;

/** A `file://` source the simulated agents can really fetch; the simulator ignores its content. */
export async function simWeightsSource(prefix: string): Promise<string> {
  const weights = join((await tempDir(prefix)).path, "sim.safetensors");
  await writeFile(weights, "simulated weights");
  return `file://${weights}`;
}

/** A sim-engine model on one card of any recent GPU, with extra engine args (faults). */
export function simGpuModel(
  name: string,
  source: string,
  options: { args?: string[]; min?: number; max?: number } = {},
) {
  const min = options.min ?? 1;
  return {
    name,
    source,
    profiles: [
      {
        name: "sim",
        engine: "sim",
        gpu: { min_compute_capability: 7.0, min_memory_gb: 16 },
        gpus: 1,
        args: options.args ?? [],
      },
    ],
    replicas: { min, max: options.max ?? Math.max(min, 1) },
  };
}
