// Same-origin single sign-on routes: /auth/entra/start and /auth/entra/callback are relayed to the
// control plane, so Microsoft sends the browser back to the console's own address and the session
// cookie is set first-party. Redirects are passed through, not followed.
import { readServerConfig } from "@/server-config";
import { relayTrpcRequest } from "@/lib/trpc-proxy";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const { apiUrl } = readServerConfig();
  return relayTrpcRequest(request, { apiUrl, trpcPath: "/auth" });
}
