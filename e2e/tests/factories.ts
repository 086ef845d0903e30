// Seeds what a spec needs but does not test through the control plane's typed tRPC API, instead
// of clicking through the console: as the admin whose session admin-session.setup.ts saved, or as
// a person with their own session token. The console is driven only for what a spec tests.
import { readFileSync } from "node:fs";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import type { AppRouter } from "@llmgw/api";
import { ADMIN_SESSION_PATH, devFacts } from "./facts";

export type ApiClient = ReturnType<typeof createTRPCClient<AppRouter>>;
type InputOf<Call extends (input: never) => unknown> = Parameters<Call>[0];

function apiClient(headers: Record<string, string>): ApiClient {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${devFacts().apiUrl}/api/trpc`, headers })],
  });
}

/** A client without a browser that calls with a session token a password sign-in answered. */
export function apiAs(token: string): ApiClient {
  return apiClient({ authorization: `Bearer ${token}` });
}

/** A client that calls as the admin, with the session cookie the setup project saved. */
export function adminApi(): ApiClient {
  const state = JSON.parse(readFileSync(ADMIN_SESSION_PATH, "utf8")) as {
    cookies: { name: string; value: string }[];
  };
  return apiClient({ cookie: state.cookies.map((c) => `${c.name}=${c.value}`).join("; ") });
}

function httpStatusOfError(error: unknown): number | undefined {
  return error instanceof TRPCClientError
    ? (error as TRPCClientError<AppRouter>).data?.httpStatus
    : undefined;
}

/** The HTTP status a call was answered with: 200 when it succeeded. */
export async function httpStatusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    const status = httpStatusOfError(error);
    if (status === undefined) throw error;
    return status;
  }
}

/** Signs in over the API (no browser) and answers the session token; null when refused. */
export async function loginToken(username: string, password: string): Promise<string | null> {
  try {
    const { token } = await apiClient({}).auth.login.mutate({ username, password });
    return token ?? null;
  } catch (error) {
    if (error instanceof TRPCClientError) return null;
    throw error;
  }
}

/** Creates something unless it exists already (a spec run again against the same `llmgw dev`). */
async function unlessExists(create: Promise<unknown>): Promise<void> {
  try {
    await create;
  } catch (error) {
    if (httpStatusOfError(error) !== 409) throw error;
  }
}

/** What specs seed as the admin. Each tolerates a leftover from an earlier run. */
export const seed = {
  group: (input: InputOf<ApiClient["groups"]["create"]["mutate"]>) =>
    unlessExists(adminApi().groups.create.mutate(input)),
  roleGrant: (input: InputOf<ApiClient["roles"]["grant"]["mutate"]>) =>
    unlessExists(adminApi().roles.grant.mutate(input)),
  person: (input: InputOf<ApiClient["people"]["create"]["mutate"]>) =>
    unlessExists(adminApi().people.create.mutate(input)),
  orgUnit: (input: InputOf<ApiClient["org"]["create"]["mutate"]>) =>
    unlessExists(adminApi().org.create.mutate(input)),
  mcpServer: (input: InputOf<ApiClient["mcp"]["servers"]["add"]["mutate"]>) =>
    unlessExists(adminApi().mcp.servers.add.mutate(input)),
  model: (definition: Record<string, unknown>) =>
    unlessExists(adminApi().models.add.mutate({ definition })),
};
