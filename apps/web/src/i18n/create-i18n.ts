// One i18next instance per browser tab, initialised synchronously from bundled resources so the
// first client render already has every string.
import { createInstance, type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, type Language } from "../lib/preferences";
import { NAMESPACES, resources } from "./resources";

export function createI18n(language: Language): I18n {
  const instance = createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: ["en", "tr"],
    ns: [...NAMESPACES],
    defaultNS: "common",
    // React escapes text itself; escaping here too would show &amp; to the operator.
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
