"use client";
// Language and theme controls, shared by the top bar and the sign-in page.
import { useTranslation } from "react-i18next";
import { LANGUAGES, isLanguage } from "../lib/preferences";
import { usePreferences } from "./preferences";

export function LanguageSwitch({
  onLanguageChosen,
}: {
  /** Called when the person picks a language, to remember it on the server. */
  onLanguageChosen?: (language: "en" | "tr") => void;
}) {
  const { t } = useTranslation();
  const { language, setLanguage } = usePreferences();
  return (
    <select
      className="control"
      data-testid="lang-switch"
      aria-label={t("topBar.language")}
      title={t("topBar.language")}
      value={language}
      onChange={(event) => {
        if (!isLanguage(event.target.value)) return;
        setLanguage(event.target.value);
        onLanguageChosen?.(event.target.value);
      }}
    >
      {LANGUAGES.map((code) => (
        <option key={code} value={code}>
          {t(`languages.${code}`)}
        </option>
      ))}
    </select>
  );
}

export function ThemeSwitch() {
  const { t } = useTranslation();
  const { theme, setTheme } = usePreferences();
  const label = theme === "dark" ? t("topBar.switchToLight") : t("topBar.switchToDark");
  return (
    <button
      type="button"
      className="control"
      data-testid="theme-switch"
      data-theme-current={theme}
      aria-label={label}
      title={label}
      onClick={() => setTheme(theme === "dark" ? "light" : "dark")}
    >
      {theme === "dark" ? t("topBar.themeDark") : t("topBar.themeLight")}
    </button>
  );
}
