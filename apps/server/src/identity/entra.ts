// Sign-in with Entra ID: OpenID Connect authorization code with PKCE through openid-client. The
// issuer is the tenant's own (`{authority}/{tenant}/v2.0`), ID token signatures are checked
// against its keys, state works once (its row is deleted when the callback comes), the nonce must
// match, and people are found again by tid + oid. The `groups` claim maps to roles through groups
// whose externalId is the Entra group's object id.
import { messageOf } from "@llmgw/domain";
import { createHash } from "node:crypto";
import * as oidc from "openid-client";
import { eq, groups, lt, ne, signInStates, type Database } from "@llmgw/db";
import { upsertDirectoryPerson, type DirectoryMemberships } from "./directory-people";
import { SignInRefused } from "./errors";
import type { EntraSettings, SignInStore } from "./sign-in-settings";
import { ENTRA_CALLBACK_PATH } from "./sign-in-settings";

const STATE_TTL_MS = 10 * 60_000;
const DISCOVERY_CACHE_MS = 10 * 60_000;

export interface EntraPerson {
  subject: string;
  username: string;
  displayName: string;
  email: string | null;
  groupIds: string[] | null;
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

function isLoopback(url: URL): boolean {
  return ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

function entraIssuer(settings: EntraSettings): URL {
  return new URL(`${settings.authorityUrl.replace(/\/+$/, "")}/${settings.tenantId}/v2.0`);
}

export class EntraSignIn {
  private cached: { key: string; config: oidc.Configuration; atMs: number } | null = null;

  constructor(
    private readonly store: SignInStore,
    private readonly nowMs: () => number,
  ) {}

  private async config(settings: EntraSettings): Promise<oidc.Configuration> {
    const secret = await this.store.entraSecret();
    if (!secret)
      throw new SignInRefused(
        "Entra ID has no client secret yet; an admin sets it on People → Sign-in",
      );
    const key = JSON.stringify([settings, sha(secret)]);
    if (this.cached?.key === key && this.nowMs() - this.cached.atMs < DISCOVERY_CACHE_MS)
      return this.cached.config;
    const issuer = entraIssuer(settings);
    // Plain HTTP is allowed for a provider on this machine only (a local test provider).
    const execute = isLoopback(issuer) ? [oidc.allowInsecureRequests] : [];
    const config = await oidc.discovery(issuer, settings.clientId, secret, undefined, { execute });
    oidc.enableNonRepudiationChecks(config);
    this.cached = { key, config, atMs: this.nowMs() };
    return config;
  }

  async settings(): Promise<EntraSettings> {
    const settings = await this.store.entra();
    if (!settings?.enabled) throw new SignInRefused("sign-in with Microsoft is not set up here");
    return settings;
  }

  /** The authorization URL to send the browser to; the state, nonce and verifier are kept. */
  async start(origin: string, returnTo: string): Promise<URL> {
    const settings = await this.settings();
    const config = await this.config(settings);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const db = this.store.db;
    await db.delete(signInStates).where(lt(signInStates.expiresAt, new Date(this.nowMs())));
    await db.insert(signInStates).values({
      stateHash: sha(state),
      nonce,
      codeVerifier,
      returnTo,
      expiresAt: new Date(this.nowMs() + STATE_TTL_MS),
    });
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${origin}${ENTRA_CALLBACK_PATH}`,
      scope: "openid profile email",
      response_mode: "query",
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
    });
  }

  /** Checks the callback and answers who signed in. Throws SignInRefused with the reason. */
  async finish(callbackUrl: URL): Promise<{ person: EntraPerson; returnTo: string }> {
    const settings = await this.settings();
    const error = callbackUrl.searchParams.get("error");
    if (error)
      throw new SignInRefused(
        `Microsoft refused the sign-in: ${callbackUrl.searchParams.get("error_description") ?? error}`,
      );
    const state = callbackUrl.searchParams.get("state") ?? "";
    // Deleting the row is the check: a second callback with the same state finds nothing.
    const [pending] = await this.store.db
      .delete(signInStates)
      .where(eq(signInStates.stateHash, sha(state)))
      .returning();
    if (!pending || pending.expiresAt.getTime() < this.nowMs())
      throw new SignInRefused("this sign-in link was already used or has expired; start again");
    const config = await this.config(settings);
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (cause) {
      throw new SignInRefused(
        `the ID token from Microsoft was refused: ${describeTokenError(cause)}`,
      );
    }
    if (!claims) throw new SignInRefused("Microsoft sent no ID token");
    return { person: personFrom(claims, settings), returnTo: pending.returnTo };
  }
}

/** openid-client wraps oauth4webapi's error, whose message names the claim that failed. */
function describeTokenError(error: unknown): string {
  const outer = messageOf(error);
  const inner = (error as { cause?: unknown }).cause;
  return inner instanceof Error && inner.message !== outer ? `${outer}: ${inner.message}` : outer;
}

function personFrom(claims: oidc.IDToken, settings: EntraSettings): EntraPerson {
  const tid = typeof claims.tid === "string" ? claims.tid : "";
  const oid = typeof claims.oid === "string" ? claims.oid : "";
  if (tid.toLowerCase() !== settings.tenantId.toLowerCase())
    throw new SignInRefused(
      `the token is from tenant ${tid || "(none)"}, not ${settings.tenantId}`,
    );
  if (!oid)
    throw new SignInRefused("the token has no oid claim, so the person cannot be identified");
  const claimNames = claims._claim_names as Record<string, unknown> | undefined;
  let groupIds: string[] | null = null;
  if (Array.isArray(claims.groups))
    groupIds = claims.groups.filter((g): g is string => typeof g === "string");
  else if (claimNames && "groups" in claimNames) {
    if (settings.groupsOverage === "refuse")
      throw new SignInRefused(
        "Entra ID sent no groups because this person is in more than 200 (the groups overage); " +
          "an admin can assign groups to the application, or set overage to ignore on People → Sign-in",
      );
    groupIds = null;
  }
  const preferred = typeof claims.preferred_username === "string" ? claims.preferred_username : oid;
  return {
    subject: `entra:${tid.toLowerCase()}:${oid.toLowerCase()}`,
    username: preferred.toLowerCase(),
    displayName: typeof claims.name === "string" ? claims.name : preferred,
    email: typeof claims.email === "string" ? claims.email : null,
    groupIds,
  };
}

/**
 * Finds or makes the person for an Entra sign-in: by tid+oid, else a SCIM-provisioned person with
 * the same user name (linked from then on). Directory group memberships are replaced by the
 * token's, for groups standing for an Entra group id; null groups (overage ignored) leave them.
 */
export async function upsertEntraPerson(db: Database, person: EntraPerson) {
  return upsertDirectoryPerson(
    db,
    { ...person, source: "entra" },
    {
      adoptsScimPerson: true,
      memberships: person.groupIds && (await entraMemberships(db, person.groupIds)),
    },
  );
}

/** Groups standing for a directory group other than an AD one, held when the token names them. */
async function entraMemberships(
  db: Database,
  groupIds: readonly string[],
): Promise<DirectoryMemberships> {
  const wanted = new Set(groupIds.map((id) => id.toLowerCase()));
  const candidates = await db.select().from(groups).where(ne(groups.source, "ldap"));
  const mapped = candidates.filter((g) => g.externalId !== null);
  const held = mapped.filter(
    (g) => g.externalId !== null && wanted.has(g.externalId.toLowerCase()),
  );
  return { groups: mapped, heldIds: new Set(held.map((g) => g.id)) };
}
