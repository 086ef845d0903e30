// What `llmgw server init` and `llmgw server add` both write into a control plane's home: the
// settings file and the systemd units, and the check that no server runs on the home meanwhile.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, type ServerConfig } from "../config";
import type { InitOptions } from "./config";
import { formatSettingsFile, settingsPath } from "./settings-file";
import { systemdUnits } from "./systemd-units";

/** The settings a new home starts with: its ports, its certificate's names, the store it uses. */
export function homeSettings(
  options: InitOptions,
  shared: ReadonlyArray<[string, string]>,
): Array<[string, string]> {
  const tlsNames = [...options.names, ...options.addresses];
  return [
    ["LLMGW_PORT", options.port],
    ["LLMGW_AGENT_PORT", options.agentPort],
    // An installed control plane serves ctl and the console proxy from other machines too.
    ["LLMGW_BIND", "0.0.0.0"],
    ...(tlsNames.length > 0
      ? [["LLMGW_AGENT_TLS_NAMES", tlsNames.join(",")] as [string, string]]
      : []),
    ...shared,
  ];
}

/** Writes `<home>/server.env` the first time; afterwards the operator's edits are kept. */
export function writeSettings(homeDir: string, settings: ReadonlyArray<[string, string]>): string {
  const path = settingsPath(homeDir);
  if (existsSync(path)) return `${path} (kept: it already exists)`;
  writeFileSync(path, formatSettingsFile(settings), { mode: 0o600 });
  return `${path} (written)`;
}

/** A server running on the home has the store open: what changes it must wait until it stops. */
export async function refuseWhileRunning(config: ServerConfig, advice: string): Promise<void> {
  const url = `http://127.0.0.1:${config.httpPort}/healthz`;
  const isUp = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
    (res) => res.ok,
    () => false,
  );
  if (isUp) throw new ConfigError(`a server answers at ${url}: ${advice}`);
}

export function writeUnits(options: InitOptions): string {
  const dir = join(options.homeDir, "systemd");
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const units = systemdUnits({
    installRoot: options.installRoot,
    homeDir: options.homeDir,
    agentDataDir: options.agentDataDir,
    user: options.user,
    apiUrl: `http://127.0.0.1:${options.port}`,
  });
  for (const unit of units) writeFileSync(join(dir, unit.name), unit.text, { mode: 0o644 });
  return `${dir}/{${units.map((unit) => unit.name).join(",")}}`;
}
