// Sign-in setup kept in the store: the settings rows hold what may be shown (tenant, client ID,
// servers, CA), sealed secrets hold what may not (client secret, bind password). Every change is
// audited with the secrets redacted.
import { eq, settings, type Database } from "@llmgw/db";
import {
  ServiceError,
  type Actor,
  type EntraSettingsInput,
  type LdapSettingsInput,
  type SignInSettings,
} from "@llmgw/api";
import { readSecret, storeSecret } from "../seal/sealed-secrets";
import { recordAudit } from "./audit";
import { applyGroupMappings } from "./ldap-group-mappings";

const ENTRA_KEY = "auth.entra";
const LDAP_KEY = "auth.ldap";
export const SCIM_KEY = "auth.scim";
const ENTRA_SECRET = "auth/entra-client-secret";
const LDAP_SECRET = "auth/ldap-bind-password";
export const ENTRA_CALLBACK_PATH = "/auth/entra/callback";

export type EntraSettings = Omit<EntraSettingsInput, "clientSecret">;
export type LdapSettings = Omit<LdapSettingsInput, "bindPassword">;
export interface ScimSettings {
  tokenHash: string | null;
  lastSyncAt: string | null;
}

async function readSetting<T>(db: Database, key: string): Promise<T | null> {
  const [row] = await db.select().from(settings).where(eq(settings.key, key));
  return row ? (row.value as T) : null;
}

export async function writeSetting(db: Database, key: string, value: unknown): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}

export class SignInStore {
  constructor(
    readonly db: Database,
    private readonly masterKey: Uint8Array,
  ) {}

  entra = () => readSetting<EntraSettings>(this.db, ENTRA_KEY);
  ldap = () => readSetting<LdapSettings>(this.db, LDAP_KEY);
  scim = async (): Promise<ScimSettings> =>
    (await readSetting<ScimSettings>(this.db, SCIM_KEY)) ?? { tokenHash: null, lastSyncAt: null };
  entraSecret = () => readSecret(this.db, this.masterKey, ENTRA_SECRET);
  ldapPassword = () => readSecret(this.db, this.masterKey, LDAP_SECRET);

  async view(): Promise<SignInSettings> {
    const [entra, ldap, scim] = await Promise.all([this.entra(), this.ldap(), this.scim()]);
    return {
      entra: entra && {
        ...entra,
        hasClientSecret: (await this.entraSecret()) !== null,
        redirectPath: ENTRA_CALLBACK_PATH,
      },
      ldap: ldap && {
        ...ldap,
        caPem: ldap.caPem ?? null,
        groupBase: ldap.groupBase ?? null,
        // Settings saved before these fields existed read as the defaults.
        upnFilter: ldap.upnFilter ?? "(&(objectClass=user)(userPrincipalName={username}))",
        nameAttribute: ldap.nameAttribute ?? "sAMAccountName",
        groupMappings: ldap.groupMappings ?? [],
        hasBindPassword: (await this.ldapPassword()) !== null,
      },
      scim: { hasToken: scim.tokenHash !== null, lastSyncAt: scim.lastSyncAt, path: "/scim/v2" },
    };
  }

  async setEntra(input: EntraSettingsInput, actor: Actor): Promise<void> {
    const { clientSecret, ...shown } = input;
    if (clientSecret === undefined && (await this.entraSecret()) === null)
      throw new ServiceError(
        "invalid",
        "client secret is required the first time Entra ID is set up",
        { code: "signin.entra_secret_required" },
      );
    if (clientSecret !== undefined)
      await storeSecret(this.db, this.masterKey, ENTRA_SECRET, clientSecret);
    await writeSetting(this.db, ENTRA_KEY, shown);
    await recordAudit(this.db, {
      actor: actor.username,
      action: "setting.entra",
      target: ENTRA_KEY,
      details: input,
    });
  }

  async setLdap(input: LdapSettingsInput, actor: Actor): Promise<void> {
    const { bindPassword, ...shown } = input;
    if (bindPassword === undefined && (await this.ldapPassword()) === null)
      throw new ServiceError(
        "invalid",
        "bind password is required the first time Active Directory is set up",
        { code: "signin.ldap_password_required" },
      );
    if (bindPassword !== undefined)
      await storeSecret(this.db, this.masterKey, LDAP_SECRET, bindPassword);
    await writeSetting(this.db, LDAP_KEY, shown);
    await applyGroupMappings(this.db, shown.groupMappings, actor);
    await recordAudit(this.db, {
      actor: actor.username,
      action: "setting.ldap",
      target: LDAP_KEY,
      details: input,
    });
  }
}
