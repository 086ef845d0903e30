"use client";
// Which AD groups hold which role, and where: one row per group DN, added and removed here.
import { useTranslation } from "react-i18next";
import { LDAP_ROLES, type GroupMapping, type LdapRole } from "./ldap-draft";

export function LdapGroupMappings({
  mappings,
  onChange,
}: {
  mappings: GroupMapping[];
  onChange(next: GroupMapping[]): void;
}) {
  const { t } = useTranslation("signin-setup");
  const { t: tc } = useTranslation();
  const change = (index: number, patch: Partial<GroupMapping>) =>
    onChange(mappings.map((m, i) => (i === index ? { ...m, ...patch } : m)));
  return (
    <>
      <h3>{t("ldap.mappings")}</h3>
      <p className="muted">{t("ldap.mappingsHelp")}</p>
      {mappings.map((m, i) => (
        <div className="toolbar" key={i} data-testid="ldap-mapping">
          <input
            aria-label={t("ldap.groupDn")}
            className="ldap-mapping-dn"
            data-testid={`ldap-mapping-dn-${i}`}
            placeholder={t("ldap.groupDnExample")}
            value={m.dn}
            onChange={(e) => change(i, { dn: e.target.value })}
          />
          <select
            aria-label={t("ldap.role")}
            data-testid={`ldap-mapping-role-${i}`}
            value={m.role}
            onChange={(e) => change(i, { role: e.target.value as LdapRole })}
          >
            {LDAP_ROLES.map((r) => (
              <option key={r} value={r}>
                {tc(`roles.${r}`)}
              </option>
            ))}
          </select>
          <input
            aria-label={t("ldap.scope")}
            data-testid={`ldap-mapping-scope-${i}`}
            value={m.scope}
            onChange={(e) => change(i, { scope: e.target.value })}
          />
          <button
            type="button"
            className="control"
            data-testid={`ldap-mapping-remove-${i}`}
            onClick={() => onChange(mappings.filter((_, j) => j !== i))}
          >
            {t("ldap.removeMapping")}
          </button>
        </div>
      ))}
      <button
        type="button"
        className="control"
        data-testid="ldap-mapping-add"
        onClick={() => onChange([...mappings, { dn: "", role: "viewer", scope: "*" }])}
      >
        {t("ldap.addMapping")}
      </button>
    </>
  );
}
