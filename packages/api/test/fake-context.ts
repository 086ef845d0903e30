// A context with fake services for router tests: every service function is a vi.fn that a test
// can answer or make refuse, and the caller's role is chosen per test.
import { vi } from "vitest";
import type { ApiContext, ApiServices } from "../src/context";
import type { CreateKeyInput, KeyView, McpServerView, ModelView, Role } from "../src/index";

export function modelView(overrides: Partial<ModelView> = {}): ModelView {
  return {
    name: "chat",
    definition: { name: "chat" },
    revision: 1,
    state: "ready",
    replicasDesired: 1,
    replicasReady: 1,
    replicasTotal: 1,
    consecutiveFailures: 0,
    isParked: false,
    lastError: null,
    unplaceableReasons: [],
    fallbacks: [],
    owner: null,
    updatedAt: "2030-01-01T00:00:00.000Z",
    updatedBy: "admin",
    ...overrides,
  };
}

export function fakeServices() {
  return {
    nodes: { list: vi.fn(async () => []), get: vi.fn(async () => null) },
    auth: { login: vi.fn(async () => null), logout: vi.fn(async () => undefined) },
    models: {
      list: vi.fn(async () => [modelView()]),
      get: vi.fn(async (): Promise<ModelView | null> => modelView()),
      add: vi.fn(async () => modelView()),
      remove: vi.fn(async () => undefined),
      retry: vi.fn(async () => modelView()),
      setFallbacks: vi.fn(async () => modelView()),
      explainPlacement: vi.fn(async () => ({ model: "chat", lines: [], summary: "placed" })),
      presets: vi.fn(async () => []),
    },
    replicas: { list: vi.fn(async () => []) },
    status: {
      get: vi.fn(async () => ({
        nodesReady: 0,
        nodesUnreachable: 0,
        freeWholeNodes: [],
        capacity: [],
        replicasReady: 0,
        replicasDesired: 0,
        modelsReady: 0,
        modelsTotal: 0,
        parked: [],
        unplaceable: [],
      })),
    },
    logs: {
      get: vi.fn(async (node: string, source: string) => ({
        node,
        source,
        lines: [],
        sources: ["agent"],
      })),
    },
    reclaim: { run: vi.fn(async (collect: boolean) => ({ collect, nodes: [] })) },
    keys: {
      create: vi.fn(async (input: CreateKeyInput) => ({
        key: "llmgw_fake",
        view: keyView(input.owner),
      })),
      list: vi.fn(async () => [keyView("team:ml")]),
      revoke: vi.fn(async () => ({
        ...keyView("team:ml"),
        state: "revoked" as const,
        revokedAt: "2030-01-01T00:00:00.000Z",
      })),
    },
    usage: {
      query: vi.fn(async () => ({
        since: "2030-01-01T00:00:00.000Z",
        until: "2030-01-02T00:00:00.000Z",
        rows: [],
      })),
    },
    mcp: {
      listServers: vi.fn(async () => []),
      addServer: vi.fn(async () => mcpServerView()),
      updateServer: vi.fn(async () => mcpServerView()),
      removeServer: vi.fn(async (name: string) => ({ name })),
      testServer: vi.fn(async () => ({ ok: true, tools: [], error: null, elapsedMs: 1 })),
      setEnabled: vi.fn(async () => mcpServerView()),
      replaceCredential: vi.fn(async () => mcpServerView()),
      listGrants: vi.fn(async () => []),
      grant: vi.fn(async () => []),
      revoke: vi.fn(async () => []),
      open: vi.fn(async () => []),
    },
  } satisfies ApiServices;
}

export function mcpServerView(): McpServerView {
  return {
    name: "tickets",
    url: "https://mcp.example.com/mcp",
    description: null,
    timeoutMs: null,
    callsPerMinute: null,
    headers: [{ name: "Authorization", isSealed: true, value: null }],
    isBuiltIn: false,
    state: "enabled",
    outForMs: 0,
    grants: [],
    createdBy: "admin",
    createdAt: "2030-01-01T00:00:00.000Z",
    updatedAt: "2030-01-01T00:00:00.000Z",
  };
}

function keyView(owner: string): KeyView {
  return {
    id: "k1",
    prefix: "0123456789ab",
    owner,
    models: ["*"],
    requestsPerMinute: null,
    tokensPerMinute: null,
    concurrentMax: null,
    expiresAt: null,
    revokedAt: null,
    createdBy: "admin",
    createdAt: "2030-01-01T00:00:00.000Z",
    lastUsedAt: null,
    state: "active",
  };
}

export function fakeContext(
  role: Role | null,
  services = fakeServices(),
): ApiContext & { services: ReturnType<typeof fakeServices> } {
  return {
    services,
    sessionToken: role ? "token" : null,
    user: role ? { id: `u-${role}`, username: `${role}-user`, role } : null,
    setSessionCookie: () => undefined,
    clearSessionCookie: () => undefined,
  };
}
