// A control plane's settings file, `<home>/server.env`: the same LLMGW_* names as the environment,
// one `NAME=value` per line (the format systemd's EnvironmentFile= and dotenv read). `llmgw server
// init` writes it once; `llmgw server --home DIR` reads it, and the real environment wins over it,
// so a one-off `LLMGW_PORT=9090 llmgw server` still works on an installed home.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "dotenv";

const SETTINGS_FILE = "server.env";

/** Names the file may set: settings, never anything else that would reach child processes. */
const SETTING_NAME = /^(LLMGW_[A-Z0-9_]+|DATABASE_URL)$/;

export class SettingsFileError extends Error {
  override readonly name = "SettingsFileError";
}

export function settingsPath(homeDir: string): string {
  return join(homeDir, SETTINGS_FILE);
}

/** The settings in `<home>/server.env`, or none when the home has no such file. */
export function readSettingsFile(homeDir: string): Record<string, string> {
  const path = settingsPath(homeDir);
  if (!existsSync(path)) return {};
  const settings = parse(readFileSync(path, "utf8"));
  const unknown = Object.keys(settings).filter((name) => !SETTING_NAME.test(name));
  if (unknown.length > 0)
    throw new SettingsFileError(
      `${path}: ${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not a setting (names start with LLMGW_, or DATABASE_URL)`,
    );
  if ("LLMGW_HOME" in settings)
    throw new SettingsFileError(
      `${path}: LLMGW_HOME cannot be set inside the home it names; pass --home or set it in the environment`,
    );
  return settings;
}

/** The file's text: a header saying what it is, then one setting per line, in the order given. */
export function formatSettingsFile(settings: ReadonlyArray<[name: string, value: string]>): string {
  const lines = settings.map(([name, value]) => {
    if (!SETTING_NAME.test(name)) throw new SettingsFileError(`${name} is not a setting`);
    if (/[\n\r]/.test(value)) throw new SettingsFileError(`${name}: a value is one line`);
    return /^[A-Za-z0-9_.,:/@+-]*$/.test(value)
      ? `${name}=${value}`
      : `${name}=${JSON.stringify(value)}`;
  });
  return [
    "# llmgw control plane settings, read by `llmgw server --home <this folder>`.",
    "# The environment wins over this file. Every setting: docs/install.md.",
    ...lines,
    "",
  ].join("\n");
}
