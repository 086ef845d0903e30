// What every procedure receives. The server builds it per request; the API package knows nothing
// of databases or sockets, only these service interfaces.
import type { OwnershipResolver } from "@llmgw/domain";
import type { UserView } from "./auth/schemas";
import type { EventsAttention, EventsListInput, EventsPage } from "./events/schemas";
import type { LogsView } from "./logs/schemas";
import type { FleetCardsView, NodeSummary } from "./nodes/summary";
import type { ReplicaCardsView } from "./replicas/cards";
import type { DoctorView } from "./doctor/schemas";
import type { FabricTestInput, FabricTestView } from "./fabric/schemas";
import type { MirrorRemoveResult, MirrorView } from "./mirrors/schemas";
import type { FederationAddInput, FederationSyncResult, PeerView } from "./federation/schemas";
import type {
  AddModelInput,
  ModelView,
  PlacementExplanation,
  PresetView,
  ResizeResultView,
  SetModelContextInput,
  SetModelGpusInput,
  SetModelResourcesInput,
} from "./models/schemas";
import type {
  GpuHistoryView,
  NodeEngineBuildInput,
  NodeLabelInput,
  NodeView,
} from "./nodes/schemas";
import type { ScopeQuotaView, SetQuotaInput } from "./quotas/schemas";
import type { ReclaimView } from "./reclaim/schemas";
import type { ReleaseView } from "./releases/schemas";
import type { ControlPlaneView } from "./control-planes/schemas";
import type { UpgradeControlPlaneResult, UpgradeNodeResult, UpgradePlan } from "./upgrade/schemas";
import type {
  BenchAccess,
  BenchAccessInput,
  IdleReplicasView,
  ReplicaView,
} from "./replicas/schemas";
import type { ClusterStatus } from "./status/schemas";
import type { ExploreAnswer, ExploreInput } from "./explore/schemas";
import type { FacilityHoldView, FacilityView, NodeCordonInput } from "./facility/schemas";
import type { UsageQueryInput, UsageReport, UsageSeries, UsageSeriesInput } from "./usage/schemas";
import type { FailedRequestsInput, FailedRequestsPage } from "./usage/failed-schemas";

import type {
  Actor,
  AuditService,
  AuthService,
  GuardService,
  JoinTokensService,
  KeysService,
  McpService,
  PeopleService,
  SignInSetupService,
} from "./access-services";

export { ServiceError } from "./service-error";
export type {
  Actor,
  AuditService,
  AuthService,
  GuardService,
  JoinTokensService,
  KeysService,
  McpService,
  PeopleService,
  SignInSetupService,
} from "./access-services";

export interface ModelsService {
  list(): Promise<ModelView[]>;
  /** Throws ServiceError("not_found") for a model the catalog does not hold. */
  get(name: string): Promise<ModelView>;
  /** Validates, stores and swaps the catalog; throws ServiceError("invalid") with every problem. */
  add(input: AddModelInput, actor: Actor): Promise<ModelView>;
  remove(name: string, actor: Actor): Promise<void>;
  /** Clears a parked model's failures so the reconciler tries again. */
  retry(name: string, actor: Actor): Promise<ModelView>;
  setFallbacks(name: string, fallbacks: string[], actor: Actor): Promise<ModelView>;
  /**
   * Sets the model's owner (`team:ml`; null clears it) without a new revision, so its replicas
   * keep running; refuses a person or an owner that is not in the org tree.
   */
  setOwner(name: string, owner: string | null, actor: Actor): Promise<ModelView>;
  /** Seals an external model's provider key (null clears it); the key is never answered back. */
  setKey(name: string, key: string | null, actor: Actor): Promise<ModelView>;
  explainPlacement(name: string): Promise<PlacementExplanation>;
  presets(): Promise<PresetView[]>;
  /**
   * The sizing actions: change a profile's cards (with tensor parallel), context (with slots) or
   * host resources, refusing what no node or the cards cannot hold (ServiceError "invalid" with a
   * `sizing.*` code); the replicas then restart one at a time (docs/sizing.md).
   */
  setGpus(input: SetModelGpusInput, actor: Actor): Promise<ResizeResultView>;
  setContext(input: SetModelContextInput, actor: Actor): Promise<ResizeResultView>;
  setResources(input: SetModelResourcesInput, actor: Actor): Promise<ResizeResultView>;
}

export interface ReplicasService {
  list(filter: { model?: string; node?: string }): Promise<ReplicaView[]>;
  /** Which replica holds which card (`replicaCardsOf`), for the heatmap's tooltips. */
  cards(): Promise<ReplicaCardsView>;
  /** Ready replicas on cards that stayed under 5 % busy for the whole sample window. */
  idle(): Promise<IdleReplicasView>;
  /** A ready replica's engine address and key; refuses a model without one (audited). */
  benchAccess(input: BenchAccessInput, actor: Actor): Promise<BenchAccess>;
}

export interface StatusService {
  get(): Promise<ClusterStatus>;
}

/** Narrows a log read to one request's lines, across one source or the whole node. */
export interface LogSearch {
  requestId?: string;
  everySource?: boolean;
}

export interface LogsService {
  /** The last `lines` lines of the agent's log (source "agent") or of one replica's engine. */
  get(node: string, source: string, lines: number, search?: LogSearch): Promise<LogsView>;
}

export interface DoctorService {
  /** The node's doctor report, from its agent; refused at once for an agent too old to answer. */
  run(node: string): Promise<DoctorView>;
}

export interface FabricService {
  /** ib_write_bw rail by rail between two nodes' agents; refused at once for an agent too old. */
  test(input: FabricTestInput, actor: Actor): Promise<FabricTestView>;
}

export interface ReclaimService {
  run(collect: boolean, actor: Actor): Promise<ReclaimView>;
}

/** Releases stored for upgrades; uploads arrive over HTTP, not through this interface. */
export interface ReleasesService {
  list(): Promise<ReleaseView[]>;
  remove(version: string, actor: Actor): Promise<{ version: string }>;
}

export interface ControlPlanesService {
  list(): Promise<ControlPlaneView[]>;
}

/** Quotas per scope of the ownership tree; every change is audited and re-plans the fleet. */
export interface QuotasService {
  /** Every scope with a quota or holding something, with what it holds per resource. */
  list(): Promise<ScopeQuotaView[]>;
  /**
   * Stores the scope's quota (replacing any); refuses a scope not in the tree, amounts that do
   * not parse (naming the part), a guarantee above the limit or above a parent's limit.
   */
  set(input: SetQuotaInput, actor: Actor): Promise<ScopeQuotaView>;
  /** Throws ServiceError("not_found") for a scope without a quota. */
  remove(scope: string, actor: Actor): Promise<{ scope: string }>;
}

/** Rolling upgrades: the control plane first, then one node at a time (driven by the CLI). */
export interface UpgradeService {
  plan(): Promise<UpgradePlan>;
  /** Swaps the control plane's release and restarts it once the answer has gone. */
  controlPlane(version: string, actor: Actor): Promise<UpgradeControlPlaneResult>;
  /** Tells the node's agent to upgrade itself and waits for its answer (not for its return). */
  node(nodeIdOrName: string, version: string, actor: Actor): Promise<UpgradeNodeResult>;
}

export interface NodesService {
  list(): Promise<NodeView[]>;
  summaries(): Promise<NodeSummary[]>;
  cards(): Promise<FleetCardsView>;
  /** One node by id or name; throws ServiceError("not_found") for an unknown node. */
  get(id: string): Promise<NodeView>;
  /** The node's recent card samples (id or name); throws ServiceError("not_found") like `get`. */
  history(id: string): Promise<GpuHistoryView>;
  /**
   * Revokes the node's certificates, closes its session and forgets it as a node that left;
   * throws ServiceError("not_found") like `get`.
   */
  remove(id: string, actor: Actor): Promise<{ id: string; certificatesRevoked: number }>;
  /** Edits the node's stored labels (they win over the agent's); throws like `get`. */
  label(input: NodeLabelInput, actor: Actor): Promise<NodeView>;
  /** Cordons, drains or uncordons (state null) the node; throws like `get`. */
  cordon(input: NodeCordonInput, actor: Actor): Promise<NodeView>;
  /** Stores the node's GPU engine build and tells its agent; throws like `get`, or "invalid". */
  engineBuild(input: NodeEngineBuildInput, actor: Actor): Promise<NodeView>;
}

export interface FacilityService {
  list(): Promise<FacilityView>;
  /** Holds a domain (`rack=r12`), or changes whether an existing hold drains. */
  hold(domain: string, drain: boolean, actor: Actor): Promise<FacilityHoldView>;
  /** Throws ServiceError("not_found", code facility.not_held) for a domain not held. */
  release(domain: string, actor: Actor): Promise<FacilityHoldView>;
}

export interface UsageService {
  query(input: UsageQueryInput): Promise<UsageReport>;
  /** Time buckets with latency p50/p95, per model or owner. */
  series(input: UsageSeriesInput): Promise<UsageSeries>;
  /** Failed requests (status 400 or more) newest first, each with the node it ran on. */
  failed(input: FailedRequestsInput): Promise<FailedRequestsPage>;
}

export interface EventsService {
  list(input: EventsListInput): Promise<EventsPage>;
  attention(): Promise<EventsAttention>;
  /** Marks every warning and error up to `upToId` as seen; answers how many it changed. */
  acknowledge(upToId: number, actor: Actor): Promise<{ acknowledged: number }>;
}

export interface FederationService {
  list(): Promise<PeerView[]>;
  /** Checks the address, seals the key, stores the peer and syncs its models once. */
  add(input: FederationAddInput, actor: Actor): Promise<PeerView>;
  remove(name: string, actor: Actor): Promise<{ name: string }>;
  /** Syncs one peer's models (or every peer's, for null) now. */
  sync(name: string | null): Promise<FederationSyncResult[]>;
}

export interface ExploreService {
  /**
   * What fits this fleet now for the presets, the catalog and each config given; throws
   * ServiceError("invalid", code explore.config_refused) naming the config and field it cannot read.
   */
  run(configs: NonNullable<ExploreInput["configs"]>): Promise<ExploreAnswer>;
}

export interface MirrorsService {
  list(): Promise<MirrorView[]>;
  /** Deletes the file on the mirror (HTTP DELETE); refused while a catalog model loads it. */
  remove(mirror: string, path: string, actor: Actor): Promise<MirrorRemoveResult>;
}

export interface ApiServices {
  nodes: NodesService;
  auth: AuthService;
  models: ModelsService;
  replicas: ReplicasService;
  status: StatusService;
  logs: LogsService;
  doctor: DoctorService;
  fabric: FabricService;
  reclaim: ReclaimService;
  releases: ReleasesService;
  controlPlanes: ControlPlanesService;
  quotas: QuotasService;
  upgrade: UpgradeService;
  keys: KeysService;
  joinTokens: JoinTokensService;
  usage: UsageService;
  events: EventsService;
  people: PeopleService;
  audit: AuditService;
  signIn: SignInSetupService;
  /** The org → team → project tree, for checks on owned things (keys, grants). */
  ownership: OwnershipResolver;
  mcp: McpService;
  federation: FederationService;
  mirrors: MirrorsService;
  explore: ExploreService;
  facility: FacilityService;
  guard: GuardService;
}

export interface ApiContext {
  services: ApiServices;
  /** The caller's session token, from the cookie or `Authorization: Bearer`. */
  sessionToken: string | null;
  /** The signed-in user, resolved from the token before the procedure runs. */
  user: UserView | null;
  /** The address the request came from, for throttling sign-in. */
  clientAddress: string;
  /**
   * A browser sent the request (it names its page in Origin or Sec-Fetch-Site, which a script
   * cannot remove): the session token then travels only in the HttpOnly cookie, never in JSON.
   */
  isBrowser: boolean;
  setSessionCookie(token: string, expiresAt: Date): void;
  clearSessionCookie(): void;
}
