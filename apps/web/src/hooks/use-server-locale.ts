"use client";
// The language a person chose is remembered on the server; when they sign in from another browser,
// the console switches to it once, after which local choices take over (and are saved back).
import { useEffect, useRef } from "react";
import { usePreferences } from "../components/preferences";

export function useServerLocale(locale: "en" | "tr" | null): void {
  const { language, setLanguage } = usePreferences();
  const applied = useRef(false);
  useEffect(() => {
    if (applied.current || locale === null) return;
    applied.current = true;
    if (locale !== language) setLanguage(locale);
  }, [locale, language, setLanguage]);
}
