"use client";
// The frame around every signed-in page. It owns the session check: until auth.me answers nothing
// else renders, and any UNAUTHORIZED answer (expired or revoked session) sends the operator to
// sign in instead of leaving a half-broken page on screen. The page's own first queries are
// started beside auth.me (lib/page-prefetch.ts), so they are answered by the time it renders.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useDesktopNotifications } from "../../hooks/use-desktop-notifications";
import { useShellShortcuts } from "../../hooks/use-shell-shortcuts";
import { useServerLocale } from "../../hooks/use-server-locale";
import { useWindowTitle } from "../../hooks/use-window-title";
import { setDeskUser } from "../../lib/desk/desk-storage";
import { rememberLastPage } from "../../lib/desk/last-page";
import { keepReturnPath } from "../../lib/desk/return-cookie";
import { isUnauthorized, isUnreachable } from "../../lib/errors";
import { pageToPrefetch, prefetchPageQueries, takeStartedAtLoad } from "../../lib/page-prefetch";
import { forgetLastUser, lastUser, rememberLastUser } from "../../lib/pwa/last-user";
import { isSignInPath, signInHref } from "../../lib/return-path";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { CommandPalette } from "./command-palette";
import { ConnectionBanner } from "./connection-banner";
import { HelpOverlay } from "./help-overlay";
import { Sidebar } from "./sidebar";
import { TopBar } from "./top-bar";

function useRedirectWhenSignedOut(): void {
  const queryClient = useQueryClient();
  const router = useRouter();
  useEffect(() => {
    const redirectIfUnauthorized = (error: unknown) => {
      // A query that fails while the redirect is under way (the shell is still mounted on the
      // sign-in page) must not send the operator on again: that would drop the page in ?next=.
      if (!isUnauthorized(error) || isSignInPath(window.location.pathname)) return;
      queryClient.clear();
      forgetLastUser();
      // Back here after signing in: a deep link (/nodes/X/logs) survives the detour.
      router.replace(signInHref(`${window.location.pathname}${window.location.search}`));
    };
    for (const query of queryClient.getQueryCache().getAll())
      redirectIfUnauthorized(query.state.error);
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error")
        redirectIfUnauthorized(event.action.error);
    });
  }, [queryClient, router]);
}

/**
 * On the shell's first render, asks for the opened page's first queries in the same tick as
 * auth.me, unless they left as the console loaded: nothing of them shows before auth.me answers,
 * and a refusal ends at sign-in above. At "/" it also loads the code of the page "/" will send
 * the person on to.
 */
function usePagePrefetch(): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  useEffect(() => {
    const page = pageToPrefetch(window.location, { lastUserId: lastUser()?.id ?? null });
    if (page.pathname !== window.location.pathname) router.prefetch(page.pathname);
    // Mostly already asked as the console's code loaded (components/providers.tsx); not when
    // the shell mounts later in the tab, as after signing in.
    if (!takeStartedAtLoad(queryClient)) void prefetchPageQueries(trpc, queryClient, page);
  }, [trpc, queryClient, router]);
}

/** Keeps the page open now as the person's last one ("/" itself only sends them on). */
function useLastPage(isSignedIn: boolean): void {
  const pathname = usePathname();
  useEffect(() => {
    if (!isSignedIn) return;
    const path = `${pathname}${window.location.search}`;
    rememberLastPage(path);
    // The same page for the console's proxy, which sends a visit to "/" straight there.
    keepReturnPath(path);
  }, [isSignedIn, pathname]);
}

export function ConsoleShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [isHelpOpen, setHelpOpen] = useState(false);
  const [isPaletteOpen, setPaletteOpen] = useState(false);
  const me = useQuery(trpc.auth.me.queryOptions(undefined, { staleTime: 30_000 }));
  usePagePrefetch();
  useRedirectWhenSignedOut();
  useServerLocale(me.data?.locale ?? null);
  useWindowTitle();
  useEffect(() => {
    if (me.data) rememberLastUser(me.data);
  }, [me.data]);
  // While the control plane is out of reach the shell stands on what it last knew of the person
  // (this session's answer, or the one this browser kept), so the window stays an application.
  const user = me.data ?? (isUnreachable(me.error) ? lastUser() : null);
  // Set while rendering, not in an effect: the pages below read their desk as they first render.
  setDeskUser(user?.id ?? null);
  useLastPage(user !== null);
  useDesktopNotifications(me.data !== undefined);

  const signOut = useMutation(
    trpc.auth.logout.mutationOptions({
      // Signing out locally is right even if the server call failed: the operator asked to leave.
      onSettled: () => {
        queryClient.clear();
        forgetLastUser();
        router.replace("/sign-in");
      },
    }),
  );

  const goTo = useCallback((path: string) => router.push(path), [router]);
  useShellShortcuts({
    goTo,
    toggleHelp: useCallback(() => setHelpOpen((open) => !open), []),
    openPalette: useCallback(() => {
      setHelpOpen(false);
      setPaletteOpen(true);
    }, []),
    closeOverlays: useCallback(() => setHelpOpen(false), []),
  });

  if (me.isPending || isUnauthorized(me.error)) {
    return <div className="boot-message">{t("loading")}</div>;
  }
  if (!user) {
    return (
      <div className="boot-message">
        <ErrorPanel error={me.error} onRetry={() => void me.refetch()} />
      </div>
    );
  }
  return (
    <div className="shell">
      <TopBar
        user={user}
        isSigningOut={signOut.isPending}
        onSignOut={() => signOut.mutate()}
        onHelp={() => setHelpOpen(true)}
        onPalette={() => setPaletteOpen(true)}
      />
      <ConnectionBanner />
      <Sidebar />
      <main className="content">{children}</main>
      {isHelpOpen ? <HelpOverlay onClose={() => setHelpOpen(false)} /> : null}
      <CommandPalette open={isPaletteOpen} onOpenChange={setPaletteOpen} goTo={goTo} />
    </div>
  );
}
