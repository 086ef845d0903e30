// The services behind who may do what: sign-in and sessions, people and grants, sign-in setup, the
// audit log, API keys, join tokens, MCP servers and grants, and guard policies. Split from
// context.ts, which gathers them with the fleet's services into ApiServices.
import type { GuardPolicy } from "@llmgw/domain";
import type { AuditEntry, AuditQueryInput } from "./audit/schemas";
import type { CreatedToken, LoginOutput, TokenView } from "./auth/schemas";
import type {
  CreatedJoinToken,
  CreateJoinTokenInput,
  JoinInfo,
  JoinTokenView,
} from "./join-tokens/schemas";
import type { CreatedKey, CreateKeyInput, KeyView } from "./keys/schemas";
import type {
  McpAddServerInput,
  McpCredential,
  McpGrantInput,
  McpGrantView,
  McpRevokeInput,
  McpServerView,
  McpTestResult,
  McpUpdateServerInput,
} from "./mcp/schemas";
import type {
  CreateGroupInput,
  CreateOrgUnitInput,
  CreatePersonInput,
  GrantRoleInput,
  GroupView,
  OrgUnitView,
  PersonView,
  RoleBindingView,
  UpdatePersonInput,
} from "./people/schemas";
import type {
  EntraSettingsInput,
  LdapSettingsInput,
  LdapTestReport,
  SignInMethods,
  SignInSettings,
} from "./sign-in/schemas";
import type { GuardJudgeCheck, GuardJudgeCheckInput, GuardPolicyView } from "./guard/schemas";

/** Who is acting, for the audit log. */
export interface Actor {
  username: string;
}

export interface AuthService {
  /**
   * Checks a password and opens a session; throws ServiceError("unauthorized") when the pair does
   * not match, and RetryLaterError, before checking anything, while `address` or `username` is
   * throttled.
   */
  login(username: string, password: string, address: string): Promise<LoginOutput>;
  logout(token: string): Promise<void>;
  /** Ends every session and token of the person. */
  logoutEverywhere(userId: string): Promise<number>;
  setLocale(userId: string, locale: "en" | "tr"): Promise<void>;
  createToken(userId: string, label: string, expiresInDays: number): Promise<CreatedToken>;
  listTokens(userId: string): Promise<TokenView[]>;
  revokeToken(userId: string, id: string): Promise<void>;
}

/** People, groups, the ownership tree and role grants; every change lands in the audit log. */
export interface PeopleService {
  list(): Promise<PersonView[]>;
  create(input: CreatePersonInput, actor: Actor): Promise<PersonView>;
  update(input: UpdatePersonInput, actor: Actor): Promise<PersonView>;
  remove(id: string, actor: Actor): Promise<void>;
  /** Ends every session of the person; answers how many ended. */
  signOut(id: string, actor: Actor): Promise<number>;
  groups(): Promise<GroupView[]>;
  createGroup(input: CreateGroupInput, actor: Actor): Promise<GroupView>;
  removeGroup(id: string, actor: Actor): Promise<void>;
  addMember(group: string, username: string, actor: Actor): Promise<GroupView>;
  removeMember(group: string, username: string, actor: Actor): Promise<GroupView>;
  units(): Promise<OrgUnitView[]>;
  createUnit(input: CreateOrgUnitInput, actor: Actor): Promise<OrgUnitView>;
  removeUnit(owner: string, actor: Actor): Promise<void>;
  bindings(): Promise<RoleBindingView[]>;
  grant(input: GrantRoleInput, actor: Actor): Promise<RoleBindingView>;
  revokeGrant(id: string, actor: Actor): Promise<void>;
}

/** Entra ID, Active Directory and SCIM setup; secrets go in sealed and never come back out. */
export interface SignInSetupService {
  methods(): Promise<SignInMethods>;
  settings(): Promise<SignInSettings>;
  setEntra(input: EntraSettingsInput, actor: Actor): Promise<SignInSettings>;
  setLdap(input: LdapSettingsInput, actor: Actor): Promise<SignInSettings>;
  /** Tries these settings (the form's), or the saved ones when absent; never stores anything. */
  testLdap(input?: LdapSettingsInput): Promise<LdapTestReport>;
  rotateScimToken(actor: Actor): Promise<{ token: string }>;
}

export interface AuditService {
  list(input: AuditQueryInput): Promise<AuditEntry[]>;
}

export interface KeysService {
  /** Makes a key; the answer carries the plaintext, which is never stored. */
  create(input: CreateKeyInput, actor: Actor): Promise<CreatedKey>;
  list(): Promise<KeyView[]>;
  /** One key, or null when no key has that id. */
  get(id: string): Promise<KeyView | null>;
  /** Revokes at once; throws ServiceError("not_found") for an unknown id. */
  revoke(id: string, actor: Actor): Promise<KeyView>;
}

export interface JoinTokensService {
  /** Makes a token; the answer carries its text, of which only a hash is stored. */
  create(input: CreateJoinTokenInput, actor: Actor): Promise<CreatedJoinToken>;
  list(): Promise<JoinTokenView[]>;
  /** Revokes at once; throws ServiceError("not_found") for an unknown id. */
  revoke(id: string, actor: Actor): Promise<JoinTokenView>;
  joinInfo(): Promise<JoinInfo>;
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

export interface GuardService {
  listPolicies(): Promise<GuardPolicyView[]>;
  /** Adds or replaces the policy by name; refuses a judge model the catalog does not hold. */
  addPolicy(input: GuardPolicy, actor: Actor): Promise<GuardPolicyView>;
  removePolicy(name: string, actor: Actor): Promise<{ name: string }>;
  /** Times three judgments and a burst against the policies' budget. */
  checkJudge(input: GuardJudgeCheckInput): Promise<GuardJudgeCheck>;
}
