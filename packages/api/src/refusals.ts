// Every refusal the control plane answers, by a stable code and the names its sentence uses. The
// English sentence still travels as the error's message, for the CLI and the API; the console
// translates by code (apps/web/src/locales/*/refusals.json, checked against this list by a test),
// filling in these parameters. Imported by the browser too, so it stays free of server code.

/** Code → the parameters its sentence names, in the order they appear. */
export const REFUSALS = {
  "auth.no_session": [],
  "auth.wrong_credentials": [],
  "auth.no_role": ["username"],
  "auth.disabled": ["username"],
  "auth.directory_refused": ["reason"],
  "auth.signin_unavailable": [],
  "auth.throttled": ["seconds"],
  "role.needs_operator": ["username", "role"],
  "role.needs_owner_operator": ["username", "role"],
  "role.needs_admin": ["username", "role"],
  "role.not_on_owner": ["username", "role", "owner"],
  "role.grant_exists": ["subjectKind", "subject", "role", "scope"],
  "role.grant_not_found": ["id"],
  "token.not_found": ["id"],
  "person.not_found": ["name"],
  "person.exists": ["username"],
  "person.last_admin": ["username"],
  "group.not_found": ["name"],
  "group.exists": ["name"],
  "group.external_taken": ["name", "externalId"],
  "org.unit_not_found": ["owner"],
  "org.parent_required": ["kind", "parentKind"],
  "org.org_has_no_parent": [],
  "org.unit_exists": ["kind", "name"],
  "org.unit_not_empty": ["owner", "children"],
  "org.subject_unknown": ["kind", "name", "subject"],
  "signin.entra_secret_required": [],
  "signin.ldap_password_required": [],
  "signin.ldap_not_set_up": [],
  "signin.ldap_no_password": [],
  "signin.ldap_test_password_required": [],
  "model.not_found": ["name"],
  "replica.none_ready": ["model"],
  "replica.not_found": ["id", "model"],
  "facility.not_held": ["domain"],
  "facility.domain_invalid": ["reason"],
  "model.key_empty": ["name"],
  "model.key_too_long": ["name", "chars"],
  "model.key_not_external": ["name"],
  "model.refused": ["name"],
  "model.definition_refused": [],
  "model.catalog_refused": ["reason"],
  "model.upstream_barred": ["reason"],
  "model.fallbacks_refused": ["name"],
  "model.preset_not_found": ["preset", "presets"],
  "model.owner_refused": ["owner"],
  "sizing.no_profiles": ["model"],
  "sizing.profile_not_found": ["model", "profile", "profiles"],
  "sizing.cpu_profile": ["model", "profile"],
  "sizing.definition_refused": ["model", "reason"],
  "sizing.no_node_holds": ["model", "profile", "cpuCores", "memoryGb", "why"],
  "sizing.no_node_has_cards": ["model", "profile", "gpus", "mostCards", "why"],
  "sizing.context_too_long": [
    "model",
    "askedTokens",
    "largestTokens",
    "cards",
    "cardsForFullContext",
  ],
  "sizing.context_past_trained": ["askedTokens", "trainedTokens"],
  "sizing.split_invalid": ["cards", "attentionHeads", "kvHeads", "validCounts"],
  "sizing.weights_do_not_fit": ["weightGb", "cards", "cardGb", "cardsNeeded"],
  "sizing.no_room_for_context": ["largestTokens", "slots", "minimumTokens", "cards", "cardsNeeded"],
  "sizing.bad_input": ["problem"],
  "node.not_found": ["node"],
  "node.not_connected": ["node"],
  "node.request_failed": ["node", "reason"],
  "node.wrong_answer": ["node", "answer"],
  "node.logs_unavailable": ["node", "reason"],
  "node.agent_too_old": ["node", "feature", "version"],
  "node.engine_build_invalid": ["build", "builds"],
  "fabric.same_node": ["node"],
  "fabric.no_rdma": ["node", "reason"],
  "fabric.adapter_counts_differ": ["clientNode", "clientCount", "serverNode", "serverCount"],
  "release.not_found": ["version"],
  "release.refused": ["version", "reason"],
  "upgrade.self_refused": ["reason"],
  "upgrade.node_refused": ["node", "version", "reason"],
  "usage.range_backwards": ["since", "until"],
  "key.not_found": ["id"],
  "key.revoked": ["id"],
  "join_token.not_found": ["id"],
  "federation.url_not_url": ["url"],
  "federation.url_scheme": ["url"],
  "federation.url_credentials": ["url"],
  "federation.url_barred": ["url"],
  "federation.peer_exists": ["name"],
  "federation.peer_not_found": ["name"],
  "mirror.not_found": ["mirror", "mirrors"],
  "mirror.path_invalid": ["path"],
  "mirror.file_in_use": ["mirror", "path", "models"],
  "mirror.cannot_delete": ["mirror", "status"],
  "mirror.delete_failed": ["mirror", "path", "reason"],
  "mcp.server_not_found": ["name"],
  "mcp.server_exists": ["name"],
  "mcp.address_required": ["name"],
  "mcp.address_not_url": ["address"],
  "mcp.address_scheme": ["address"],
  "mcp.address_credentials": ["address"],
  "mcp.address_private": ["address"],
  "mcp.address_barred": ["address"],
  "mcp.admin_address_fixed": ["server"],
  "mcp.admin_no_credential": ["server"],
  "mcp.admin_no_headers": ["server"],
  "mcp.admin_keeps_no_token": ["server"],
  "mcp.header_twice": ["header"],
  "mcp.no_own_list": ["subject", "server"],
  "quota.scope_refused": ["scope"],
  "quota.amounts_refused": ["field", "part", "why"],
  "quota.guarantee_above_limit": ["scope", "resource", "guaranteed", "limit"],
  "quota.above_parent_limit": ["scope", "resource", "guaranteed", "parent", "limit"],
  "quota.not_found": ["scope"],
  "standby.no_leader": [],
  "explore.config_refused": ["name", "reason"],
  "guard.judge_not_in_catalog": ["model"],
  "guard.policy_not_found": ["name"],
  "guard.no_judge": [],
  "guard.judge_unavailable": ["model"],
} as const satisfies Record<string, readonly string[]>;

export type RefusalCode = keyof typeof REFUSALS;
export type RefusalParamValue = string | number;
type ParamName<C extends RefusalCode> = (typeof REFUSALS)[C][number];

/**
 * What a service names when it refuses: the code, its parameters and any lines to list. A union
 * over every code, so the compiler asks for exactly the parameters that code's sentence uses.
 */
export type RefusalInit<C extends RefusalCode = RefusalCode> = C extends RefusalCode
  ? { code: C; details?: string[] } & ([ParamName<C>] extends [never]
      ? { params?: Record<string, never> }
      : { params: Record<ParamName<C>, RefusalParamValue> })
  : never;

/** What travels to the client as `error.data.refusal`. */
export interface Refusal {
  code: RefusalCode;
  params: Record<string, RefusalParamValue>;
}

export function isRefusalCode(value: unknown): value is RefusalCode {
  return typeof value === "string" && Object.hasOwn(REFUSALS, value);
}
