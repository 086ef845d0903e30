// A context with fake services for router tests: every service function is a vi.fn that a test
// can answer or make refuse, and the caller's role is chosen per test.
import { vi } from "vitest";
import type { GuardPolicy } from "@llmgw/domain";
import { ServiceError, type ApiContext, type ApiServices } from "../src/context";
import type { ReplicaCardsView } from "../src/replicas/cards";
import type {
  CreateKeyInput,
  GpuHistoryView,
  Grant,
  GroupView,
  JoinTokenView,
  KeyView,
  LoginOutput,
  ModelView,
  FleetCardsView,
  NodeSummary,
  NodeView,
  PersonView,
  Role,
  RoleBindingView,
  SetQuotaInput,
  McpServerView,
  PeerView,
  TokenView,
} from "../src/schemas";

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
    externalKey: null,
    ...overrides,
  };
}

/** The server's answer for a node it does not know, so router tests see the real shape. */
function unknownNode(id: string): ServiceError {
  return new ServiceError("not_found", `node "${id}" is not known`, {
    code: "node.not_found",
    params: { node: id },
  });
}

function joinTokenView(): JoinTokenView {
  return {
    id: "abc123",
    description: "",
    createdBy: "admin",
    createdAt: "2030-01-01T00:00:00.000Z",
    expiresAt: "2030-01-01T01:00:00.000Z",
    revokedAt: null,
    uses: 0,
    usesMax: null,
    state: "active",
  };
}

export function fakeServices() {
  return {
    nodes: {
      list: vi.fn(async (): Promise<NodeView[]> => []),
      summaries: vi.fn(async (): Promise<NodeSummary[]> => []),
      cards: vi.fn(async (): Promise<FleetCardsView> => ({
        nodes: [],
        cardNames: [],
        cards: {
          ...{ index: [], nameOfCard: [], memoryMiBTotal: [], memoryMiBUsed: [] },
          ...{ utilizationPercent: [], temperatureCelsius: [] },
        },
      })),
      get: vi.fn(async (id: string): Promise<NodeView> => {
        throw unknownNode(id);
      }),
      history: vi.fn(async (id: string): Promise<GpuHistoryView> => {
        throw unknownNode(id);
      }),
      remove: vi.fn(async (id: string): Promise<{ id: string; certificatesRevoked: number }> => {
        throw unknownNode(id);
      }),
      label: vi.fn(async (input: { id: string }): Promise<NodeView> => {
        throw unknownNode(input.id);
      }),
      cordon: vi.fn(async (input: { id: string }): Promise<NodeView> => {
        throw unknownNode(input.id);
      }),
      engineBuild: vi.fn(async (input: { id: string }): Promise<NodeView> => {
        throw unknownNode(input.id);
      }),
    },
    facility: {
      list: vi.fn(async () => ({ domains: [], holds: [] })),
      hold: vi.fn(async (domain: string, drain: boolean) => ({
        domain,
        isDraining: drain,
        heldBy: "admin-user",
        heldAt: "2026-12-02T10:00:00.000Z",
      })),
      release: vi.fn(async (domain: string) => ({
        domain,
        isDraining: false,
        heldBy: "admin-user",
        heldAt: "2026-12-02T10:00:00.000Z",
      })),
    },
    auth: {
      login: vi.fn(async (): Promise<LoginOutput> => {
        throw new ServiceError("unauthorized", "wrong username or password", {
          code: "auth.wrong_credentials",
        });
      }),
      logout: vi.fn(async () => undefined),
      logoutEverywhere: vi.fn(async () => 1),
      setLocale: vi.fn(async () => undefined),
      createToken: vi.fn(async () => ({ token: "tok", view: tokenView() })),
      listTokens: vi.fn(async () => [tokenView()]),
      revokeToken: vi.fn(async () => undefined),
    },
    people: {
      list: vi.fn(async () => [personView()]),
      create: vi.fn(async () => personView()),
      update: vi.fn(async () => personView()),
      remove: vi.fn(async () => undefined),
      signOut: vi.fn(async () => 1),
      groups: vi.fn(async () => [groupView()]),
      createGroup: vi.fn(async () => groupView()),
      removeGroup: vi.fn(async () => undefined),
      addMember: vi.fn(async () => groupView()),
      removeMember: vi.fn(async () => groupView()),
      units: vi.fn(async () => [{ kind: "team" as const, name: "ml", parent: "org:acme" }]),
      createUnit: vi.fn(async () => ({ kind: "team" as const, name: "ml", parent: "org:acme" })),
      removeUnit: vi.fn(async () => undefined),
      bindings: vi.fn(async () => [bindingView()]),
      grant: vi.fn(async () => bindingView()),
      revokeGrant: vi.fn(async () => undefined),
    },
    audit: { list: vi.fn(async () => []) },
    signIn: {
      methods: vi.fn(async () => ({ entra: false, ldap: false })),
      settings: vi.fn(async () => signInSettings),
      setEntra: vi.fn(async () => signInSettings),
      setLdap: vi.fn(async () => signInSettings),
      testLdap: vi.fn(async () => ({
        servers: [],
        users: [],
        groups: [],
        userCount: 0,
        userSearchFailure: null,
        userSearchError: null,
        warnings: [],
      })),
      rotateScimToken: vi.fn(async () => ({ token: "scim" })),
    },
    ownership: {
      chain: vi.fn(async (owner: string) =>
        owner === "team:ml" ? ["org:acme", "team:ml"] : [owner],
      ),
    },
    models: {
      list: vi.fn(async () => [modelView()]),
      get: vi.fn(async () => modelView()),
      add: vi.fn(async () => modelView()),
      remove: vi.fn(async () => undefined),
      retry: vi.fn(async () => modelView()),
      setFallbacks: vi.fn(async () => modelView()),
      setOwner: vi.fn(async () => modelView()),
      setKey: vi.fn(async () => modelView()),
      explainPlacement: vi.fn(async () => ({ model: "chat", lines: [], summary: "placed" })),
      presets: vi.fn(async () => []),
      setGpus: vi.fn(async () => ({ model: modelView(), changed: true, notes: [] })),
      setContext: vi.fn(async () => ({ model: modelView(), changed: true, notes: [] })),
      setResources: vi.fn(async () => ({ model: modelView(), changed: true, notes: [] })),
    },
    replicas: {
      list: vi.fn(async () => []),
      cards: vi.fn(async (): Promise<ReplicaCardsView> => ({
        models: [],
        nodeIds: [],
        replicas: [],
      })),
      idle: vi.fn(async () => ({ thresholdPercent: 5, windowMs: 60_000, replicas: [] })),
      benchAccess: vi.fn(async (_input: { model: string }, _actor: { username: string }) => ({
        ...{ replicaId: "chat-r1", model: "chat", engine: "vllm", nodeName: "sim-h100-a" },
        ...{ baseUrl: "http://127.0.0.1:9000/v1", key: "k", servedModelName: "chat" },
      })),
    },
    status: {
      get: vi.fn(async () => ({
        clusterId: "00000000-0000-4000-8000-000000000000",
        nodesReady: 0,
        nodesUnreachable: 0,
        freeWholeNodes: [],
        freeWholeNodesByFabric: [],
        unaskedForWindowHours: 24,
        unaskedFor: [],
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
        records: [],
        linesSearched: null,
      })),
    },
    doctor: {
      run: vi.fn(async (node: string) => ({ node, status: "pass" as const, checks: [] })),
    },
    fabric: {
      test: vi.fn(async (input: { clientNode: string; serverNode: string; seconds: number }) => ({
        ...input,
        status: "ok" as const,
        rails: [],
      })),
    },
    reclaim: { run: vi.fn(async (collect: boolean) => ({ collect, nodes: [] })) },
    upgrade: {
      plan: vi.fn(async () => ({
        serverVersion: "1.3.0",
        serverRefusal: null,
        releases: [],
        nodes: [],
      })),
      controlPlane: vi.fn(async (version: string) => ({
        from: "1.3.0",
        version,
        isRestarting: true,
      })),
      node: vi.fn(async (nodeId: string, version: string) => ({
        nodeId,
        name: nodeId,
        from: "1.3.0",
        version,
        isRestarting: true,
      })),
    },
    controlPlanes: { list: vi.fn(async () => []) },
    quotas: {
      list: vi.fn(async () => []),
      set: vi.fn(async (input: SetQuotaInput) => ({
        scope: input.scope,
        quota: null,
        lines: [],
        atLimit: false,
      })),
      remove: vi.fn(async (scope: string) => ({ scope })),
    },
    releases: {
      list: vi.fn(async () => []),
      remove: vi.fn(async (version: string) => ({ version })),
    },
    keys: {
      create: vi.fn(async (input: CreateKeyInput) => ({
        key: "llmgw_fake",
        view: keyView(input.owner),
      })),
      list: vi.fn(async () => [keyView("team:ml")]),
      get: vi.fn(async (id: string) => (id === keyView("team:ml").id ? keyView("team:ml") : null)),
      revoke: vi.fn(async () => ({
        ...keyView("team:ml"),
        state: "revoked" as const,
        revokedAt: "2030-01-01T00:00:00.000Z",
      })),
    },
    joinTokens: {
      create: vi.fn(async () => ({ token: "abc123.secret", view: joinTokenView() })),
      list: vi.fn(async () => [joinTokenView()]),
      revoke: vi.fn(async () => ({ ...joinTokenView(), state: "revoked" as const })),
      joinInfo: vi.fn(async () => ({
        agentUrls: ["wss://localhost:8081"],
        caSha256: "ab".repeat(32),
      })),
    },
    usage: {
      query: vi.fn(async () => ({
        since: "2030-01-01T00:00:00.000Z",
        until: "2030-01-02T00:00:00.000Z",
        rows: [],
      })),
      series: vi.fn(async () => ({
        since: "2030-01-01T00:00:00.000Z",
        until: "2030-01-02T00:00:00.000Z",
        bucketSeconds: 1_800,
        groupBy: "model" as const,
        points: [],
        totals: [],
      })),
      failed: vi.fn(async () => ({
        since: "2030-01-01T00:00:00.000Z",
        until: "2030-01-02T00:00:00.000Z",
        requests: [],
        nextCursor: null,
      })),
    },
    events: {
      list: vi.fn(async () => ({ events: [], nextCursor: null })),
      attention: vi.fn(async () => ({ count: 0, newestId: null })),
      acknowledge: vi.fn(async () => ({ acknowledged: 0 })),
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
    federation: {
      list: vi.fn(async () => []),
      add: vi.fn(async () => peerView()),
      remove: vi.fn(async (name: string) => ({ name })),
      sync: vi.fn(async () => []),
    },
    mirrors: {
      list: vi.fn(async () => []),
      remove: vi.fn(async (mirror: string, path: string) => ({ mirror, path })),
    },
    explore: { run: vi.fn(async () => ({ models: [] })) },
    guard: {
      listPolicies: vi.fn(async () => []),
      addPolicy: vi.fn(async (input: GuardPolicy) => ({
        ...input,
        createdBy: "admin-user",
        updatedAt: "2026-12-02T10:00:00.000Z",
      })),
      removePolicy: vi.fn(async (name: string) => ({ name })),
      checkJudge: vi.fn(async () => ({
        model: "judge",
        budgetMs: 1_000,
        singleMs: [100, 100, 100],
        burst: 8,
        burstMs: 400,
        judgmentsPerSecond: 20,
        speed: "ok" as const,
        advice: "the judge keeps up",
      })),
    },
  } satisfies ApiServices;
}

const signInSettings = {
  entra: null,
  ldap: null,
  scim: { hasToken: false, lastSyncAt: null, path: "/scim/v2" },
};

function peerView(): PeerView {
  return {
    name: "site-b",
    url: "https://llmgw.b.example",
    sendsTags: false,
    state: "unknown",
    latencyMs: null,
    lastError: null,
    models: [],
    syncedAt: null,
    createdBy: "admin",
  };
}

function tokenView(): TokenView {
  return {
    id: "t1",
    label: "laptop",
    createdAt: "2030-01-01T00:00:00.000Z",
    expiresAt: "2030-04-01T00:00:00.000Z",
  };
}

function personView(): PersonView {
  return {
    id: "u1",
    username: "ada",
    displayName: "Ada",
    email: null,
    source: "local",
    isActive: true,
    directRole: "viewer",
    role: "viewer",
    groups: [],
    grants: [],
    homeOwner: null,
    lastSignInAt: null,
    createdAt: "2030-01-01T00:00:00.000Z",
  };
}

function groupView(): GroupView {
  return { id: "g1", name: "ml", source: "local", externalId: null, members: [], grants: [] };
}

function bindingView(): RoleBindingView {
  return {
    id: "b1",
    subjectKind: "group",
    subject: "ml",
    role: "operator",
    scope: "team:ml",
    createdBy: "admin",
    createdAt: "2030-01-01T00:00:00.000Z",
  };
}

function mcpServerView(): McpServerView {
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
    residency: "any",
    noStore: false,
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
  grants: Grant[] = [],
): ApiContext & { services: ReturnType<typeof fakeServices> } {
  return {
    services,
    sessionToken: role ? "token" : null,
    user: role
      ? {
          id: `u-${role}`,
          username: `${role}-user`,
          role,
          displayName: "",
          source: "local",
          locale: null,
          grants,
        }
      : null,
    clientAddress: "192.0.2.1",
    isBrowser: false,
    setSessionCookie: () => undefined,
    clearSessionCookie: () => undefined,
  };
}
