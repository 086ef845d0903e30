// Builds every service behind the tRPC router (and the pieces the HTTP routes share with them:
// API keys, sign-in settings, Entra, MCP). Each service comes from its feature folder; this file
// only chooses what each one may touch: reads go through the fleet view, never the reconciler's bag.
import { join } from "node:path";
import { messageOf } from "@llmgw/domain";
import type { ApiServices, UserView } from "@llmgw/api";
import { createLogsService, createReclaimService } from "../agents/node-requests";
import { createDoctorService } from "../agents/doctor-service";
import { createFabricService } from "../agents/fabric-service";
import { createModelsService } from "../catalog/models-service";
import { createEventsService } from "../events/events-service";
import { createExploreService, fleetForExplorer } from "../fleet/explore-service";
import { createFacilityService, nodeCordoner } from "../fleet/facility-service";
import { nodeLabeler } from "../fleet/node-labels";
import { nodeEngineBuilder } from "../fleet/engine-builds";
import { createNodesService } from "../fleet/nodes-service";
import { createStatusService } from "../fleet/status-service";
import type { StoredNodeRows } from "../fleet/stored-node-rows";
import { createUsageService } from "../gateway/usage-service";
import { createAuditService, recordAudit } from "../identity/audit";
import { createAuthService, userForSession } from "../identity/auth-service";
import { EntraSignIn } from "../identity/entra";
import { LdapSignIn } from "../identity/ldap-sign-in";
import { createOwnershipResolver } from "../identity/ownership";
import { createPeopleService } from "../identity/people-service";
import { createSignInSetupService } from "../identity/sign-in-service";
import { SignInStore } from "../identity/sign-in-settings";
import { Guard } from "../guard/guard";
import { createGuardService } from "../guard/guard-service";
import { createKeysService, type GatewayKeys } from "../keys/keys-service";
import { startMcp, type McpParts } from "../mcp/start-mcp";
import type { ClusterPki } from "../pki/cluster-pki";
import type { JoinTokens } from "../pki/join-tokens";
import { nodeRemover } from "../pki/remove-node";
import type { ControlPlane, ControlPlaneOptions } from "../reconcile/control-plane";
import { createQuotasService } from "../quotas/quotas-service";
import { createReplicasService } from "../reconcile/replicas-service";
import { ReleaseStore } from "../releases/release-store";
import { createReleasesService } from "../releases/releases-service";
import { createUpgradeService } from "../upgrade/upgrade-service";
import { SERVER_VERSION } from "../version";
import type { Federation } from "../federation/federation";

/** Fetching, checking and unpacking a release of hundreds of megabytes takes a node a while. */
const NODE_UPGRADE_REPLY_TIMEOUT_MS = 5 * 60_000;

/** What the control plane was started with, and the parts of it the API services use. */
export interface ApiServicesOptions extends Omit<ControlPlaneOptions, "leadership"> {
  /** Stops the server with status 75 (its supervisor starts the new release) after an upgrade. */
  requestRestart(): void;
  plane: Pick<
    ControlPlane,
    "fleet" | "catalog" | "health" | "reconciler" | "apiKeyPepper" | "masterKey" | "replicaSecret"
  >;
  /** The stored node inventory kept in memory; the inventory writer says when it changed. */
  storedNodes: StoredNodeRows;
  /** The control planes on this store (the leader's directory). */
  controlPlanes: ApiServices["controlPlanes"];
  /** The node certificates (nodes.remove revokes them) and the join tokens. */
  cluster: { pki: Pick<ClusterPki, "certificates">; joinTokens: JoinTokens };
  /** Peer clusters, and this cluster's own id. */
  federation: Federation;
  /** The mirrors of the settings, checked on a timer. */
  mirrors: ApiServices["mirrors"];
}

export interface ApiWiring {
  services: ApiServices;
  /** The API keys, which the /v1 gateway checks too. */
  keys: GatewayKeys;
  /** Sign-in settings, which the SCIM routes read. */
  signInStore: SignInStore;
  /** The Entra sign-in, which the /auth routes complete. */
  entra: EntraSignIn;
  mcp: McpParts;
  /** The guard, which the /v1 gateway and the MCP gateway both consult. */
  guard: Guard;
  /** Stored releases, which the upload route writes and the agent port serves. */
  releaseStore: ReleaseStore;
  sessionUser(token: string): Promise<UserView | null>;
}

export function createApiServices(options: ApiServicesOptions): ApiWiring {
  const { db, config, plane, registry, links, events, nowMs, log } = options;
  const { fleet } = plane;
  const keys = createKeysService(db, plane.apiKeyPepper, nowMs, events);
  const signInStore = new SignInStore(db, plane.masterKey);
  const entra = new EntraSignIn(signInStore, nowMs);
  const ldap = new LdapSignIn(signInStore, log);
  const ownership = createOwnershipResolver(db);
  const sessionUser = (token: string) => userForSession(db, token, new Date(nowMs()));
  const guard = new Guard({ db, nowMs, log });
  const mcp = startMcp({
    ...{ db, config: config.mcp, masterKey: plane.masterKey, guard },
    ...{ keys, ownership, sessionUser, nowMs, log },
  });
  const { catalog, health, reconciler } = plane;
  const timeoutMs = config.agentRequestTimeoutMs;
  const releaseStore = new ReleaseStore(join(config.homeDir, "releases"));
  const nodes = createNodesService(db, options.storedNodes, registry, options.liveness, nowMs);
  const certificates = options.cluster.pki.certificates;
  const replicas = createReplicasService(fleet, {
    replicaSecret: plane.replicaSecret,
    audit: (entry) => recordAudit(db, entry),
  });
  const facilityDeps = {
    ...{ db, nodes, facility: registry.facility, events },
    facilityChanged: () => reconciler.markAll(),
  };
  const services: ApiServices = {
    nodes: {
      ...nodes,
      remove: nodeRemover({ db, nodes, certificates, links, events, log }),
      label: nodeLabeler(facilityDeps),
      cordon: nodeCordoner(facilityDeps),
      engineBuild: nodeEngineBuilder({ db, nodes, registry, links, stored: options.storedNodes }),
    },
    facility: createFacilityService(facilityDeps),
    auth: createAuthService(db, config.sessionTtlMs, nowMs, ldap, config.signInFreeFailures),
    models: createModelsService({ db, fleet, catalog, health, reconciler, events, log }),
    replicas,
    status: createStatusService(db, fleet, options.federation.clusterId),
    logs: createLogsService({ registry, links }, timeoutMs),
    // nvidia-smi and lspci may each take up to 15 s on a loaded node: twice the usual wait.
    doctor: createDoctorService({ registry, links, nowMs }, timeoutMs * 2),
    fabric: createFabricService({ registry, links, db }),
    reclaim: createReclaimService(db, { registry, links, catalog: fleet.catalog }, timeoutMs),
    releases: createReleasesService(releaseStore, events),
    controlPlanes: options.controlPlanes,
    // A changed quota can let a waiting model start, or stop one: planning reads the quotas again
    // and plans every model.
    quotas: createQuotasService({
      ...{ db, fleet, ownership, nowMs, log },
      quotasChanged: () => {
        reconciler
          .reloadQuotas()
          .catch((error: unknown) => log(`reading quotas again failed: ${messageOf(error)}`));
      },
    }),
    upgrade: createUpgradeService({
      ...{ serverVersion: SERVER_VERSION, store: releaseStore, nodes, replicas },
      ...{ registry, links, events, nodeReplyTimeoutMs: NODE_UPGRADE_REPLY_TIMEOUT_MS, log },
      requestRestart: options.requestRestart,
    }),
    keys,
    joinTokens: options.cluster.joinTokens,
    usage: createUsageService(db, nowMs),
    events: createEventsService(db),
    people: createPeopleService(db),
    audit: createAuditService(db),
    ownership,
    signIn: createSignInSetupService(signInStore),
    mcp: mcp.service,
    federation: options.federation,
    mirrors: options.mirrors,
    explore: createExploreService(fleetForExplorer(fleet)),
    guard: createGuardService({
      ...{ db, guard, nowMs },
      hasModel: (name) => fleet.catalog.current().get(name) !== undefined,
    }),
  };
  return { services, keys, signInStore, entra, mcp, guard, releaseStore, sessionUser };
}
