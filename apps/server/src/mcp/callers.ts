// Who is calling /mcp: an API key (its owner's levels, then `key:<id>`) or a console session
// (the person's levels). The caller's token stays here; nothing of it goes upstream.
import type { IncomingMessage } from "node:http";
import type { UserView } from "@llmgw/api";
import { parseApiKey, type OwnershipResolver } from "@llmgw/domain";
import type { GatewayKeys } from "../keys/keys-service";
import { sessionTokenFrom } from "../http/context";

export interface McpCaller {
  /** `key:<id>` or `user:<name>`: the rate and the audit are counted by it. */
  subject: string;
  /** Who, in words, for the audit: the key's prefix and owner, or the person. */
  label: string;
  /** Top of the tree first, the caller itself last. */
  levels: string[];
}

export interface CallerDeps {
  keys: GatewayKeys;
  sessionUser(token: string): Promise<UserView | null>;
  ownership: OwnershipResolver;
}

export type CallerCheck = { ok: true; caller: McpCaller } | { ok: false; why: string };

export async function identifyCaller(deps: CallerDeps, req: IncomingMessage): Promise<CallerCheck> {
  const token = sessionTokenFrom(req);
  if (!token)
    return {
      ok: false,
      why: "no credential: send Authorization: Bearer <your llmgw API key>, or sign in to the console",
    };
  if (parseApiKey(token).ok) {
    const check = await deps.keys.check(token);
    if (!check.ok) return { ok: false, why: `invalid API key: ${check.why}` };
    const key = check.key;
    const subject = `key:${key.id}`;
    const levels = [...(await deps.ownership.chain(key.owner)), subject];
    return { ok: true, caller: { subject, label: `key ${key.prefix} (${key.owner})`, levels } };
  }
  const user = await deps.sessionUser(token);
  if (!user)
    return { ok: false, why: "the session is not valid (expired or signed out); sign in again" };
  const subject = `user:${user.username}`;
  return {
    ok: true,
    caller: { subject, label: subject, levels: await deps.ownership.chain(subject) },
  };
}
