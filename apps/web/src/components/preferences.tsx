"use client";
// Language and theme: chosen by the operator, remembered per browser, reflected on <html> so CSS
// (data-theme) and the browser's own text handling (lang) follow along.
import type { i18n as I18n } from "i18next";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from "react";
import { I18nextProvider } from "react-i18next";
import { createI18n } from "../i18n/create-i18n";
import {
  DEFAULT_LANGUAGE,
  DEFAULT_THEME,
  isLanguage,
  isTheme,
  readStored,
  STORAGE_KEYS,
  writeStored,
  type Language,
  type Theme,
} from "../lib/preferences";

interface PreferencesValue {
  language: Language;
  theme: Theme;
  setLanguage(language: Language): void;
  setTheme(theme: Theme): void;
}

const PreferencesContext = createContext<PreferencesValue | null>(null);

export function usePreferences(): PreferencesValue {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error("usePreferences must be used inside <PreferencesProvider>");
  return value;
}

function storedLanguage(): Language {
  const stored = readStored(STORAGE_KEYS.language);
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

function storedTheme(): Theme {
  const stored = readStored(STORAGE_KEYS.theme);
  return isTheme(stored) ? stored : DEFAULT_THEME;
}

/** Must render on the client only: it reads localStorage in its initial state. */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(storedLanguage);
  const [theme, setThemeState] = useState<Theme>(storedTheme);
  const [i18n] = useState<I18n>(() => createI18n(language));

  const setLanguage = useCallback(
    (next: Language) => {
      writeStored(STORAGE_KEYS.language, next);
      document.documentElement.lang = next;
      void i18n.changeLanguage(next);
      setLanguageState(next);
    },
    [i18n],
  );

  const setTheme = useCallback((next: Theme) => {
    writeStored(STORAGE_KEYS.theme, next);
    document.documentElement.dataset.theme = next;
    setThemeState(next);
  }, []);

  // Every window of the console on this browser (an installed app's windows, other tabs) follows a
  // language or theme chosen in any one of them: localStorage tells the others.
  useEffect(() => {
    const follow = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.language && isLanguage(event.newValue))
        setLanguage(event.newValue);
      if (event.key === STORAGE_KEYS.theme && isTheme(event.newValue)) setTheme(event.newValue);
    };
    window.addEventListener("storage", follow);
    return () => window.removeEventListener("storage", follow);
  }, [setLanguage, setTheme]);

  // Every window of the console on this browser (an installed app's windows, other tabs) follows a
  // language or theme chosen in any one of them: localStorage tells the others.
  useEffect(() => {
    const follow = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.language && isLanguage(event.newValue))
        setLanguage(event.newValue);
      if (event.key === STORAGE_KEYS.theme && isTheme(event.newValue)) setTheme(event.newValue);
    };
    window.addEventListener("storage", follow);
    return () => window.removeEventListener("storage", follow);
  }, [setLanguage, setTheme]);

  const value = useMemo(
    () => ({ language, theme, setLanguage, setTheme }),
    [language, theme, setLanguage, setTheme],
  );
  return (
    <PreferencesContext.Provider value={value}>
      <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
    </PreferencesContext.Provider>
  );
}
