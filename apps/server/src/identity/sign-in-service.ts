// The SignInSetupService: what the sign-in page offers, and the admins' setup of Entra ID, Active
// Directory and SCIM.
import { ServiceError, type LdapSettingsInput, type SignInSetupService } from "@llmgw/api";
import { randomToken, sha256Hex } from "@llmgw/secrets";
import { recordAudit } from "./audit";
import { LdapDirectory } from "./ldap-directory";
import { mappedGroups } from "./ldap-group-mappings";
import { testLdapDirectory } from "./ldap-test";
import { SCIM_KEY, writeSetting, type LdapSettings, type SignInStore } from "./sign-in-settings";

const SCIM_TOKEN_PREFIX = "llmgw_scim_";

export function createSignInSetupService(store: SignInStore): SignInSetupService {
  return {
    async methods() {
      const [entra, ldap] = await Promise.all([store.entra(), store.ldap()]);
      return { entra: entra?.enabled === true, ldap: ldap?.enabled === true };
    },
    settings: () => store.view(),
    async setEntra(input, actor) {
      await store.setEntra(input, actor);
      return store.view();
    },
    async setLdap(input, actor) {
      await store.setLdap(input, actor);
      return store.view();
    },
    async testLdap(input) {
      const { settings, password } = await testSubject(store, input);
      const mappings = await mappedGroups(store.db, settings.groupMappings ?? []);
      return testLdapDirectory(new LdapDirectory(settings, password), mappings);
    },
    async rotateScimToken(actor) {
      const token = `${SCIM_TOKEN_PREFIX}${randomToken(32)}`;
      const current = await store.scim();
      await writeSetting(store.db, SCIM_KEY, { ...current, tokenHash: sha256Hex(token) });
      await recordAudit(store.db, {
        actor: actor.username,
        action: "setting.scim-token",
        target: SCIM_KEY,
      });
      return { token };
    },
  };
}

/**
 * What Test tries: the form's settings when given (a blank bind password means the stored one,
 * as when saving), else the saved settings. The password is used, never returned.
 */
async function testSubject(
  store: SignInStore,
  input: LdapSettingsInput | undefined,
): Promise<{ settings: LdapSettings; password: string }> {
  const stored = await store.ldapPassword();
  if (input) {
    const { bindPassword, ...settings } = input;
    const password = bindPassword ?? stored;
    if (!password)
      throw new ServiceError(
        "invalid",
        "write the bind password: none is stored yet, so there is nothing to bind with",
        { code: "signin.ldap_test_password_required" },
      );
    return { settings, password };
  }
  const settings = await store.ldap();
  if (!settings)
    throw new ServiceError(
      "unavailable",
      "Active Directory is not set up yet; fill in the form and test it",
      { code: "signin.ldap_not_set_up" },
    );
  if (!stored)
    throw new ServiceError("unavailable", "Active Directory has no bind password yet", {
      code: "signin.ldap_no_password",
    });
  return { settings, password: stored };
}
