// The API package for the server and the CLI: the router, its context and service interfaces, and
// everything the browser-safe `@llmgw/api/schemas` holds. The console imports only types from here.
export { appRouter, type AppRouter } from "./root";
export { ServiceError } from "./context";
export { RetryLaterError } from "./retry-later";
export { requestIdOf, internalErrorMessage } from "./internal-errors";
export type {
  Actor,
  ApiContext,
  ApiServices,
  AuditService,
  AuthService,
  DoctorService,
  EventsService,
  FabricService,
  ExploreService,
  FacilityService,
  GuardService,
  FederationService,
  PeopleService,
  SignInSetupService,
  KeysService,
  JoinTokensService,
  LogsService,
  LogSearch,
  McpService,
  MirrorsService,
  ModelsService,
  NodesService,
  ReclaimService,
  ReleasesService,
  ControlPlanesService,
  QuotasService,
  UpgradeService,
  ReplicasService,
  StatusService,
  UsageService,
} from "./context";
export * from "./schemas";
