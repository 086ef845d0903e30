// Same-origin tRPC endpoint of the console. The browser only ever talks to the console's origin, so
// the session cookie stays first-party and httpOnly; this handler relays each call to the control
// plane unchanged and relays the answer back, Set-Cookie included.
import { TRPC_PATH } from "@llmgw/api/schemas";
import { readServerConfig } from "@/server-config";
import { relayTrpcRequest } from "@/lib/trpc-proxy";

// Every call is live fleet state or a session change; nothing here may be cached or prerendered.
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  const { apiUrl } = readServerConfig();
  return relayTrpcRequest(request, { apiUrl, trpcPath: TRPC_PATH });
}

export const GET = handle;
export const POST = handle;
