// The MCP SDK, loaded on the first /mcp request or server test rather than at start-up: its
// modules (and their schemas) take seconds to load on a busy machine, and a control plane that
// never serves MCP should not pay for them.
import type * as ClientModule from "@modelcontextprotocol/sdk/client/index.js";
import type * as ClientHttpModule from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type * as ServerModule from "@modelcontextprotocol/sdk/server/index.js";
import type * as ServerHttpModule from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type * as TypesModule from "@modelcontextprotocol/sdk/types.js";

type Sdk = typeof TypesModule &
  typeof ServerModule &
  typeof ServerHttpModule &
  typeof ClientModule &
  typeof ClientHttpModule;

let loading: Promise<Sdk> | null = null;

export function loadSdk(): Promise<Sdk> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  ]).then((modules) => Object.assign({}, ...modules) as Sdk);
  return loading;
}
