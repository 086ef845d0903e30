// The shared process harness from @llmgw/testing, plus a typed tRPC client to look at what the
// server sees.
import { createTRPCClient, httpLink } from "@trpc/client";
import type { AppRouter } from "@llmgw/api";
import { ADMIN_PASSWORD } from "@llmgw/testing";

export {
  ADMIN_PASSWORD,
  JOIN_TOKEN,
  serverSetup,
  startAgent,
  startServer,
  type ServerHandle,
  type ServerSetup,
} from "@llmgw/testing";

export function apiClient(apiUrl: string, token: string | null) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${apiUrl}/api/trpc`,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}

export async function signIn(apiUrl: string) {
  const { token } = await apiClient(apiUrl, null).auth.login.mutate({
    username: "admin",
    password: ADMIN_PASSWORD,
  });
  return apiClient(apiUrl, token);
}
