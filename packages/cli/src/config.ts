// Environment for the CLI's commands, parsed in one place.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";

const portSchema = (name: string) =>
  z.coerce
    .number({ message: `${name} must be a port number` })
    .int()
    .min(0)
    .max(65535, `${name} must be 0-65535`);

export function webConfig(portFlag?: string) {
  const env = z
    .object({
      LLMGW_WEB_PORT: portSchema("LLMGW_WEB_PORT").default(3000),
      LLMGW_WEB_BIND: z.string().default("127.0.0.1"),
      LLMGW_API_URL: z.url("LLMGW_API_URL must be a URL").default("http://127.0.0.1:8080"),
    })
    .parse({ ...process.env, ...(portFlag !== undefined && { LLMGW_WEB_PORT: portFlag }) });
  return { port: env.LLMGW_WEB_PORT, host: env.LLMGW_WEB_BIND, apiUrl: env.LLMGW_API_URL };
}

export interface DevConfig {
  homeDir: string;
  apiPort: number;
  agentPort: number;
  webPort: number;
}

export function devConfig(): DevConfig {
  const env = z
    .object({
      LLMGW_HOME: z.string().default(".llmgw"),
      LLMGW_PORT: portSchema("LLMGW_PORT").default(8080),
      LLMGW_AGENT_PORT: portSchema("LLMGW_AGENT_PORT").default(8081),
      LLMGW_WEB_PORT: portSchema("LLMGW_WEB_PORT").default(3000),
    })
    .parse(process.env);
  return {
    homeDir: resolve(env.LLMGW_HOME),
    apiPort: env.LLMGW_PORT,
    agentPort: env.LLMGW_AGENT_PORT,
    webPort: env.LLMGW_WEB_PORT,
  };
}

export interface CtlEnv {
  configDir: string;
  server: string | undefined;
  token: string | undefined;
  /** An llmgw API key for what goes through /v1 (`ctl bench --gateway`). */
  apiKey?: string | undefined;
}

export function ctlEnv(): CtlEnv {
  return {
    configDir:
      process.env.LLMGW_CONFIG_DIR ??
      join(process.env.XDG_CONFIG_HOME ?? join(homedir(), ".config"), "llmgw"),
    // Set but empty (`LLMGW_TOKEN= llmgw ctl …`) means unset, not "sign in with no token".
    server: process.env.LLMGW_SERVER || undefined,
    token: process.env.LLMGW_TOKEN || undefined,
    apiKey: process.env.LLMGW_API_KEY || undefined,
  };
}

/** The environment children of `llmgw dev` start from. */
export function inheritedEnv(): NodeJS.ProcessEnv {
  return { ...process.env };
}
