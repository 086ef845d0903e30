// Assembles the MCP gateway: the admin service behind the `mcp` router and the /mcp handler,
// sharing one runtime (breakers, rates, cached tool lists). main.ts wires both.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiServices, McpService, UserView } from "@llmgw/api";
import type { Database } from "@llmgw/db";
import { flatOwnership, type OwnershipResolver } from "@llmgw/domain";
import type { ServerConfig } from "../config";
import type { Guard } from "../guard/guard";
import type { GatewayKeys } from "../keys/keys-service";
import { createMcpGateway } from "./mcp-gateway";
import { createMcpService, type McpServiceDeps } from "./mcp-service";
import { McpRuntime } from "./runtime";

export interface McpParts {
  service: McpService;
  /** Binds the /mcp handler once every other service exists (llmgw:admin answers from them). */
  handler(services: ApiServices): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

export interface McpOptions {
  db: Database;
  config: ServerConfig["mcp"];
  masterKey: Uint8Array;
  keys: GatewayKeys;
  guard: Guard;
  sessionUser(token: string): Promise<UserView | null>;
  ownership?: OwnershipResolver;
  nowMs(): number;
  log(line: string): void;
}

export function startMcp(options: McpOptions): McpParts {
  const deps: McpServiceDeps = {
    db: options.db,
    runtime: new McpRuntime(options.config.breakerOpenMs, options.nowMs),
    ownership: options.ownership ?? flatOwnership,
    masterKey: options.masterKey,
    isPrivateAllowed: options.config.isPrivateAllowed,
    defaultTimeoutMs: options.config.defaultTimeoutMs,
  };
  return {
    service: createMcpService(deps),
    handler: (services) =>
      createMcpGateway({
        ...deps,
        keys: options.keys,
        guard: options.guard,
        sessionUser: options.sessionUser,
        services,
        log: options.log,
      }),
  };
}
