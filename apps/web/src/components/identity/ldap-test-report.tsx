"use client";
// What Test found: each server bound or why not (in words, with what to check, and the technical
// detail folded away), then who the filter finds and each mapped group's members. When no server
// could be used the report stops there: it does not claim that nobody was found.
import type { LdapFailureCode, LdapTestReport } from "@llmgw/api";
import { useTranslation } from "react-i18next";

function Failure({ code, detail }: { code: LdapFailureCode; detail: string | null }) {
  const { t } = useTranslation("signin-setup");
  return (
    <>
      <span data-testid="ldap-report-failure" data-failure={code}>
        {t(`ldap.failure.${code}`)}
      </span>
      {detail ? (
        <details className="muted">
          <summary>{t("ldap.report.detail")}</summary>
          <code>{detail}</code>
        </details>
      ) : null}
    </>
  );
}

function Servers({ servers }: { servers: LdapTestReport["servers"] }) {
  const { t } = useTranslation("signin-setup");
  return (
    <ul>
      {servers.map((s) => (
        <li key={s.url} data-testid="ldap-report-server" data-bound={s.bound ? "yes" : "no"}>
          <code>{s.url}</code>{" "}
          {s.bound ? (
            t("ldap.report.bound")
          ) : (
            <>
              {t("ldap.report.notBound")} <Failure code={s.failure ?? "other"} detail={s.error} />
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

function Groups({ groups }: { groups: LdapTestReport["groups"] }) {
  const { t } = useTranslation("signin-setup");
  const { t: tc } = useTranslation();
  return (
    <ul>
      {groups.map((g) => (
        <li key={g.dn} data-testid="ldap-report-group" data-dn={g.dn}>
          <code>{g.dn}</code>
          {` → ${tc(`roles.${g.role}`)} (${g.scope}): `}
          {g.failure ? (
            <Failure code={g.failure} detail={g.error} />
          ) : g.members.length > 0 ? (
            g.members.join(", ")
          ) : (
            t("ldap.report.noMembers")
          )}
        </li>
      ))}
    </ul>
  );
}

export function LdapTestReportView({ report }: { report: LdapTestReport }) {
  const { t } = useTranslation("signin-setup");
  const reached = report.servers.some((s) => s.bound);
  return (
    <div className="panel" data-testid="ldap-report">
      <h3>{t("ldap.report.servers")}</h3>
      <Servers servers={report.servers} />
      {!reached ? (
        <p className="form-error" role="alert" data-testid="ldap-report-unreachable">
          {t("ldap.report.noServer")}
        </p>
      ) : report.userCount === null ? (
        <p className="form-error" role="alert" data-testid="ldap-report-user-search">
          {t("ldap.report.userSearchFailed")}{" "}
          <Failure code={report.userSearchFailure ?? "other"} detail={report.userSearchError} />
        </p>
      ) : (
        <>
          <h3>{t("ldap.report.users", { count: report.userCount })}</h3>
          <p className="muted" data-testid="ldap-report-users">
            {report.users.join(", ")}
          </p>
        </>
      )}
      {reached ? (
        <>
          <h3>{t("ldap.report.groups")}</h3>
          <Groups groups={report.groups} />
        </>
      ) : null}
      {report.warnings.map((w) => (
        <p key={w} className="form-error" role="alert" data-testid="ldap-report-warning">
          {w}
        </p>
      ))}
    </div>
  );
}
