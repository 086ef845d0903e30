// Settings the console remembers per browser. localStorage can throw (privacy modes, quota), and a
// preference is never worth an error page, so every access degrades to the default.

export const LANGUAGES = ["en", "tr"] as const;
export type Language = (typeof LANGUAGES)[number];
const THEMES = ["dark", "light"] as const;
export type Theme = (typeof THEMES)[number];

export const STORAGE_KEYS = {
  language: "llmgw.language",
  theme: "llmgw.theme",
  clusterMetric: "llmgw.cluster.metric",
  lastUser: "llmgw.desk.lastUser",
} as const;

export const DEFAULT_LANGUAGE: Language = "en";
export const DEFAULT_THEME: Theme = "dark";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

export function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

export function readStored(key: string): string | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // A preference that cannot be saved still applies to this page; nothing else to do.
  }
}

/**
 * Runs inline in <head> before first paint, so a light-theme or Turkish user never sees a dark or
 * English flash while React loads. It must stay tiny and dependency-free.
 */
export const PREFERENCES_BOOT_SCRIPT = `(function(){try{var d=document.documentElement;var t=localStorage.getItem(${JSON.stringify(
  STORAGE_KEYS.theme,
)});if(t==="light"||t==="dark")d.dataset.theme=t;var l=localStorage.getItem(${JSON.stringify(
  STORAGE_KEYS.language,
)});if(l==="en"||l==="tr")d.lang=l;}catch(e){}})();`;
