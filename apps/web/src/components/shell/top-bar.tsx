"use client";
// The strip across the top: product, location, and the operator's own controls.
import type { UserView } from "@llmgw/api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";
import { LanguageSwitch, ThemeSwitch } from "../preference-switches";
import { Breadcrumbs } from "./breadcrumbs";

// Key caps are printed as on the keyboard, like the help overlay's, so they are not translated.
const PALETTE_KEYS = ["Ctrl", "K"] as const;

interface TopBarProps {
  user: UserView;
  isSigningOut: boolean;
  onSignOut(): void;
  onHelp(): void;
  onPalette(): void;
}

export function TopBar({ user, isSigningOut, onSignOut, onHelp, onPalette }: TopBarProps) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The choice is kept on the person, so every browser they sign in from opens in it.
  const setLocale = useMutation(
    trpc.auth.setLocale.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() }),
    }),
  );
  return (
    <header className="top-bar">
      <div className="brand">{t("productName")}</div>
      <Breadcrumbs />
      <div className="top-bar-spacer" />
      <button
        type="button"
        className="control palette-button"
        onClick={onPalette}
        title={t("palette.open")}
        data-testid="palette-button"
      >
        <span>{t("palette.placeholder")}</span>
        <span>
          {PALETTE_KEYS.map((key) => (
            <kbd key={key}>{key}</kbd>
          ))}
        </span>
      </button>
      <button
        type="button"
        className="control"
        onClick={onHelp}
        title={t("topBar.help")}
        aria-label={t("topBar.help")}
        data-testid="help-button"
      >
        {"?"}
      </button>
      <LanguageSwitch onLanguageChosen={(locale) => setLocale.mutate({ locale })} />
      <ThemeSwitch />
      <Link href="/account" className="current-user" data-testid="current-user">
        {t("topBar.signedInAs", { username: user.username, role: t(`roles.${user.role}`) })}
      </Link>
      <button
        type="button"
        className="control"
        onClick={onSignOut}
        disabled={isSigningOut}
        data-testid="sign-out"
      >
        {t("topBar.signOut")}
      </button>
    </header>
  );
}
