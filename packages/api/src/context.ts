// What every procedure receives. The server builds it per request; the API package knows nothing
// of databases or sockets, only these service interfaces.
import type { LoginOutput, NodeView, UserView } from "./schemas";
import type {
  AddModelInput,
  ClusterStatus,
  LogsView,
  ModelView,
  PlacementExplanation,
  PresetView,
  ReclaimView,
  ReplicaView,
} from "./schemas-models";
import type { CreatedKey, CreateKeyInput, KeyView } from "./schemas-keys";
import type { UsageQueryInput, UsageReport } from "./schemas-usage";
import type {
  McpAddServerInput,
  McpCredential,
  McpGrantInput,
  McpGrantView,
  McpRevokeInput,
  McpServerView,
  McpTestResult,
  McpUpdateServerInput,
} from "./schemas-mcp";

/**
 * Refusals the services raise with a sentence an operator can act on; the router turns them into
 * BAD_REQUEST / NOT_FOUND / CONFLICT answers carrying that sentence (and each error line).
 */
export class ServiceError extends Error {
  override readonly name = "ServiceError";
  constructor(
    readonly kind: "invalid" | "not_found" | "conflict" | "unavailable",
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

/** Who is acting, for the audit log. */
export interface Actor {
  username: string;
}

export interface ModelsService {
  list(): Promise<ModelView[]>;
  get(name: string): Promise<ModelView | null>;
  /** Validates, stores and swaps the catalog; throws ServiceError("invalid") with every problem. */
  add(input: AddModelInput, actor: Actor): Promise<ModelView>;
  remove(name: string, actor: Actor): Promise<void>;
  /** Clears a parked model's failures so the reconciler tries again. */
  retry(name: string, actor: Actor): Promise<ModelView>;
  setFallbacks(name: string, fallbacks: string[], actor: Actor): Promise<ModelView>;
  explainPlacement(name: string): Promise<PlacementExplanation>;
  presets(): Promise<PresetView[]>;
}

export interface ReplicasService {
  list(filter: { model?: string; node?: string }): Promise<ReplicaView[]>;
}

export interface StatusService {
  get(): Promise<ClusterStatus>;
}

export interface LogsService {
  /** The last `lines` lines of the agent's log (source "agent") or of one replica's engine. */
  get(node: string, source: string, lines: number): Promise<LogsView>;
}

export interface ReclaimService {
  run(collect: boolean, actor: Actor): Promise<ReclaimView>;
}

export interface NodesService {
  list(): Promise<NodeView[]>;
  get(id: string): Promise<NodeView | null>;
}

export interface AuthService {
  /** Checks a password and opens a session; null when the pair does not match. */
  login(username: string, password: string): Promise<LoginOutput | null>;
  logout(token: string): Promise<void>;
}

export interface KeysService {
  /** Makes a key; the answer carries the plaintext, which is never stored. */
  create(input: CreateKeyInput, actor: Actor): Promise<CreatedKey>;
  list(): Promise<KeyView[]>;
  /** Revokes at once; throws ServiceError("not_found") for an unknown id. */
  revoke(id: string, actor: Actor): Promise<KeyView>;
}

export interface UsageService {
  query(input: UsageQueryInput): Promise<UsageReport>;
}

export interface McpService {
  listServers(): Promise<McpServerView[]>;
  /** Refuses an address with a user and password, or a private one unless configuration allows. */
  addServer(input: McpAddServerInput, actor: Actor): Promise<McpServerView>;
  updateServer(input: McpUpdateServerInput, actor: Actor): Promise<McpServerView>;
  removeServer(name: string, actor: Actor): Promise<{ name: string }>;
  /** Connects with the server's credential and lists its tools. */
  testServer(name: string): Promise<McpTestResult>;
  setEnabled(name: string, isEnabled: boolean, actor: Actor): Promise<McpServerView>;
  replaceCredential(name: string, credential: McpCredential, actor: Actor): Promise<McpServerView>;
  listGrants(filter: { server?: string; subject?: string }): Promise<McpGrantView[]>;
  /** Refuses a key or person that does not exist. Answers the server's grants after it. */
  grant(input: McpGrantInput, actor: Actor): Promise<McpGrantView[]>;
  /** Takes the tools from the subject and every level beneath it. */
  revoke(input: McpRevokeInput, actor: Actor): Promise<McpGrantView[]>;
  /** Drops a level's own list (a closed one too), so it inherits again. */
  open(subject: string, server: string, actor: Actor): Promise<McpGrantView[]>;
}

export interface ApiServices {
  nodes: NodesService;
  auth: AuthService;
  models: ModelsService;
  replicas: ReplicasService;
  status: StatusService;
  logs: LogsService;
  reclaim: ReclaimService;
  keys: KeysService;
  usage: UsageService;
  mcp: McpService;
}

export interface ApiContext {
  services: ApiServices;
  /** The caller's session token, from the cookie or `Authorization: Bearer`. */
  sessionToken: string | null;
  /** The signed-in user, resolved from the token before the procedure runs. */
  user: UserView | null;
  setSessionCookie(token: string, expiresAt: Date): void;
  clearSessionCookie(): void;
}
