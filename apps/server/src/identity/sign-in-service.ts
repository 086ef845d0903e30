// The SignInSetupService: what the sign-in page offers, and the admins' setup of Entra ID, Active
// Directory and SCIM.
import { ServiceError, type SignInSetupService } from "@llmgw/api";
import { randomToken, sha256Hex } from "../secrets";
import { recordAudit } from "./audit";
import { LdapDirectory, mappedGroups } from "./ldap";
import { SCIM_KEY, writeSetting, type SignInStore } from "./sign-in-settings";

export const SCIM_TOKEN_PREFIX = "llmgw_scim_";

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
    async testLdap() {
      const settings = await store.ldap();
      if (!settings)
        throw new ServiceError(
          "unavailable",
          "Active Directory is not set up yet; save the settings first",
          { code: "signin.ldap_not_set_up" },
        );
      const password = await store.ldapPassword();
      if (!password)
        throw new ServiceError("unavailable", "Active Directory has no bind password yet", {
          code: "signin.ldap_no_password",
        });
      const mappings = await mappedGroups(store.db, settings.groupMappings ?? []);
      return new LdapDirectory(settings, password).test(mappings);
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
