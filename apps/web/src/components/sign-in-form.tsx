"use client";
// Sign-in with a local account, or with an Active Directory name (or UPN) and password when AD
// is set up (the server decides: names without a local password go to the directory). The server
// sets the session as an httpOnly cookie through the console's proxy, so this form never sees or
// stores the token itself.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { describeError, trpcErrorCode } from "../lib/errors";
import { LANDING_PATH, safeReturnPath } from "../lib/return-path";
import { useTRPC } from "../trpc/react";
import { LanguageSwitch, ThemeSwitch } from "./preference-switches";
import { FormField } from "./ui/form-field";

export function SignInForm() {
  const { t } = useTranslation(["auth", "common"]);
  const { t: tc } = useTranslation("common");
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const searchParams = useSearchParams();
  // A refused single sign-on comes back here with the server's reason in ?error=.
  const ssoError = searchParams.get("error");
  // The page that sent the operator here; anything off this console goes to the landing page.
  const next = safeReturnPath(searchParams.get("next")) ?? LANDING_PATH;
  const methods = useQuery(trpc.signIn.methods.queryOptions(undefined, { retry: false }));

  // An operator who is already signed in has nothing to do here.
  const me = useQuery(trpc.auth.me.queryOptions(undefined, { retry: false }));
  useEffect(() => {
    if (me.isSuccess) router.replace(next);
  }, [me.isSuccess, router, next]);

  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: (result) => {
        queryClient.setQueryData(trpc.auth.me.queryKey(), result.user);
        router.replace(next);
      },
    }),
  );

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    login.mutate({ username: username.trim(), password });
  };

  // Show "cannot reach the control plane" before the operator even types, when the probe says so.
  const probeError = trpcErrorCode(me.error) === "BAD_GATEWAY" ? me.error : null;
  const error = login.error ?? probeError;
  // The directory could not be asked: the person is told only that (the reason is in the log).
  const isUnavailable = trpcErrorCode(login.error) === "PRECONDITION_FAILED";

  return (
    <main className="sign-in">
      <div className="sign-in-corner">
        <LanguageSwitch />
        <ThemeSwitch />
      </div>
      <form className="sign-in-card" onSubmit={onSubmit} data-testid="signin-form">
        <div className="sign-in-brand">{tc("productName")}</div>
        <h1>{t("title")}</h1>
        <p className="muted">{methods.data?.ldap ? t("subtitleDirectory") : t("subtitle")}</p>
        {methods.data?.entra ? (
          <>
            <a
              className="button primary sso-button"
              href={`/auth/entra/start?returnTo=${encodeURIComponent(next)}`}
              data-testid="signin-microsoft"
            >
              {t("microsoft")}
            </a>
            <div className="muted sign-in-or">{t("or")}</div>
          </>
        ) : null}
        {ssoError ? (
          <p className="form-error" role="alert" data-testid="signin-sso-error">
            {t("ssoRefused", { reason: ssoError })}
          </p>
        ) : null}
        <FormField className="field" label={t("username")}>
          <input
            data-testid="signin-username"
            name="username"
            autoComplete="username"
            placeholder={methods.data?.ldap ? t("usernameHintDirectory") : undefined}
            autoFocus
            required
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </FormField>
        <FormField className="field" label={t("password")}>
          <input
            data-testid="signin-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </FormField>
        {error ? (
          <p className="form-error" role="alert" data-testid="signin-error">
            {isUnavailable
              ? t("unavailable")
              : describeError(error, tc, { isSignIn: error === login.error })}
          </p>
        ) : null}
        <button
          className="primary"
          type="submit"
          data-testid="signin-submit"
          disabled={login.isPending}
        >
          {login.isPending ? t("submitting") : t("submit")}
        </button>
      </form>
    </main>
  );
}
