// The console's and the control plane's public addresses, for the pages that tell people what to
// copy (an API key's base URL, /mcp, Entra's redirect URI, SCIM's base URL). Derived per request
// from the address the browser used; see lib/addresses.
import { publicAddresses } from "@/lib/addresses";
import { readServerConfig } from "@/server-config";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  return Response.json(publicAddresses(request, readServerConfig()), {
    headers: { "cache-control": "no-store" },
  });
}
