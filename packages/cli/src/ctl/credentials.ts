// Where `llmgw ctl login` keeps the server address and session token: a file only the user can read.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { CtlEnv } from "../config";

const credentialsSchema = z.object({ server: z.string(), token: z.string(), username: z.string() });
export type Credentials = z.infer<typeof credentialsSchema>;

const DEFAULT_SERVER = "http://127.0.0.1:8080";

const fileOf = (env: CtlEnv) => join(env.configDir, "credentials.json");

export function readCredentials(env: CtlEnv): Credentials | null {
  const path = fileOf(env);
  if (!existsSync(path)) return null;
  const parsed = credentialsSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  return parsed.success ? parsed.data : null;
}

export function writeCredentials(env: CtlEnv, credentials: Credentials): string {
  mkdirSync(env.configDir, { recursive: true, mode: 0o700 });
  const path = fileOf(env);
  writeFileSync(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

export function removeCredentials(env: CtlEnv): void {
  rmSync(fileOf(env), { force: true });
}

/** The server and token to use: environment first, then the saved login. */
export function resolveTarget(
  env: CtlEnv,
  serverFlag?: string,
): { server: string; token: string | null } {
  const saved = readCredentials(env);
  const server = serverFlag ?? env.server ?? saved?.server ?? DEFAULT_SERVER;
  const token = env.token ?? (saved && saved.server === server ? saved.token : null);
  return { server: server.replace(/\/+$/, ""), token };
}
