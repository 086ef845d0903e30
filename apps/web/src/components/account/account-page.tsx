"use client";
// The signed-in person's own page: who they are and what they may do, tokens for `llmgw ctl login
// --token-stdin` (made here, shown once), and signing out of every browser and CLI at once.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";
import { useTRPC } from "../../trpc/react";
import { ConfirmDialog } from "../confirm-dialog";
import { CliTokens } from "./cli-tokens";
import { DesktopNotifications } from "./desktop-notifications";

export function AccountPage({ apiUrl }: { apiUrl: string }) {
  const { t } = useTranslation("account");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.auth.me.queryOptions());
  const [isConfirming, setConfirming] = useState(false);
  const everywhere = useMutation(
    trpc.auth.logoutEverywhere.mutationOptions({
      onSuccess: () => {
        queryClient.clear();
        router.replace("/sign-in");
      },
    }),
  );
  const user = me.data;
  return (
    <section className="page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
      </div>
      {user ? (
        <div className="panel" data-testid="account-summary">
          <dl className="facts">
            <dt>{t("username")}</dt>
            <dd data-testid="account-username">{user.username}</dd>
            <dt>{t("displayName")}</dt>
            <dd>{user.displayName || user.username}</dd>
            <dt>{t("role")}</dt>
            <dd data-testid="account-role">{tc(`roles.${user.role}`)}</dd>
            <dt>{t("source")}</dt>
            <dd data-testid="account-source">{t(`sources.${user.source}`)}</dd>
            <dt>{t("grants")}</dt>
            <dd data-testid="account-grants">
              {user.grants.length === 0
                ? t("noGrants")
                : user.grants
                    .map((grant) =>
                      t("grant", { role: tc(`roles.${grant.role}`), scope: grant.scope }),
                    )
                    .join(", ")}
            </dd>
          </dl>
        </div>
      ) : (
        <p className="muted">{tc("loading")}</p>
      )}
      <CliTokens apiUrl={apiUrl} />
      <DesktopNotifications />
      <div className="panel">
        <h2>{t("everywhere.title")}</h2>
        <p className="muted">{t("everywhere.body")}</p>
        {everywhere.isError ? (
          <p className="panel panel-error" role="alert" data-testid="account-everywhere-error">
            {describeError(everywhere.error, tc)}
          </p>
        ) : null}
        <button
          type="button"
          className="control"
          disabled={everywhere.isPending}
          onClick={() => setConfirming(true)}
          data-testid="account-sign-out-everywhere"
        >
          {t("everywhere.button")}
        </button>
      </div>
      {isConfirming ? (
        <ConfirmDialog
          title={t("everywhere.confirmTitle")}
          body={t("everywhere.confirmBody")}
          confirmLabel={t("everywhere.button")}
          cancelLabel={t("cancel")}
          isBusy={everywhere.isPending}
          testId="everywhere-confirm"
          onConfirm={() => {
            setConfirming(false);
            everywhere.mutate();
          }}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}
