"use client";
// The "?" overlay: every shortcut the console answers, in the operator's language.
import { useTranslation } from "react-i18next";

// Key caps are printed as on the keyboard, so they are not translated.
const SHORTCUTS = [
  { keys: ["Ctrl", "K"], action: "palette" },
  { keys: ["g", "c"], action: "goCluster" },
  { keys: ["g", "n"], action: "goNodes" },
  { keys: ["g", "m"], action: "goModels" },
  { keys: ["g", "r"], action: "goReplicas" },
  { keys: ["g", "q"], action: "goQuotas" },
  { keys: ["g", "x"], action: "goExplore" },
  { keys: ["g", "e"], action: "goEvents" },
  { keys: ["g", "k"], action: "goKeys" },
  { keys: ["g", "u"], action: "goUsage" },
  { keys: ["g", "p"], action: "goPeople" },
  { keys: ["g", "s"], action: "goSignIn" },
  { keys: ["g", "a"], action: "goAudit" },
  { keys: ["g", "t"], action: "goMcp" },
  { keys: ["g", "y"], action: "goAccount" },
  { keys: ["/"], action: "focusFilter" },
  { keys: ["↑", "↓"], action: "moveSelection" },
  { keys: ["Enter"], action: "openSelection" },
  { keys: ["Shift", "Enter"], action: "openSelectionInWindow" },
  { keys: ["?"], action: "help" },
  { keys: ["Esc"], action: "escape" },
] as const;

export function HelpOverlay({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  return (
    <div className="overlay" role="presentation" onClick={onClose}>
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="help-title"
        data-testid="help-overlay"
        onClick={(event) => event.stopPropagation()}
      >
        <header className="dialog-header">
          <h2 id="help-title">{t("shortcuts.title")}</h2>
          <button
            type="button"
            className="control"
            onClick={onClose}
            data-testid="help-close"
            autoFocus
          >
            {t("shortcuts.close")}
          </button>
        </header>
        <table className="shortcuts">
          <tbody>
            {SHORTCUTS.map((shortcut) => (
              <tr key={shortcut.action}>
                <td className="keys">
                  {shortcut.keys.map((key, index) => (
                    <span key={key}>
                      {index > 0 && shortcut.keys[0] === "g" ? (
                        <i className="muted">{t("shortcuts.then")}</i>
                      ) : null}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </td>
                <td>{t(`shortcuts.${shortcut.action}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
