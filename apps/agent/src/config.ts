// The agent's configuration as one value, parsed from argv and the environment. This is the only
// file that reads process.env. Flags beat environment variables; the join token is best given by
// LLMGW_JOIN_TOKEN or --token-file, because argv is visible to every user of the machine (ps).
import { messageOf, must } from "@llmgw/domain";
import { readFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { AGENT_WS_PATH } from "@llmgw/proto";
import { z } from "zod";
import { defaultEngineDir } from "./engine-install/llamacpp-source";
import { loadServerUrls } from "./node-tls";
import { SIMULATION_PROFILE_NAMES } from "./simulate";

export const DEFAULT_SERVER = "wss://127.0.0.1:8081";
export const DEFAULT_DATA_DIR = "./.llmgw/agent";

export const AGENT_FLAGS = {
  server: { type: "string", multiple: true },
  token: { type: "string" },
  "token-file": { type: "string" },
  "ca-sha256": { type: "string" },
  name: { type: "string" },
  label: { type: "string", multiple: true },
  simulate: { type: "string" },
  seed: { type: "string" },
  "data-dir": { type: "string" },
  "engine-host": { type: "string" },
  "advertise-host": { type: "string" },
  "hub-url": { type: "string" },
  "stop-engines-on-exit": { type: "boolean" },
  "keep-engines-on-exit": { type: "boolean" },
  "install-engines": { type: "string" },
  "engine-dir": { type: "string" },
  "comfyui-dir": { type: "string" },
  "comfyui-command": { type: "string" },
} as const;

/** Engines the agent can build itself; "none" turns installing off. */
const INSTALLABLE_ENGINES = ["llamacpp"] as const;

/** Where each setting comes from, so an error names what the operator typed. */
const SOURCES: Record<string, string> = {
  serverUrls: "--server (or LLMGW_SERVERS)",
  joinToken: "--token-file, --token or LLMGW_JOIN_TOKEN",
  caSha256: "--ca-sha256 (or LLMGW_CA_SHA256)",
  nodeName: "--name",
  labels: "--label",
  simulationProfile: "--simulate",
  seed: "--seed",
  dataDir: "--data-dir (or LLMGW_AGENT_DATA_DIR)",
  engineHost: "--engine-host",
  advertiseHost: "--advertise-host",
  hubUrl: "--hub-url (or LLMGW_HUB_URL)",
  installEngines: "--install-engines (or LLMGW_INSTALL_ENGINES)",
  engineDir: "--engine-dir (or LLMGW_ENGINE_DIR)",
  comfyuiDir: "--comfyui-dir (or LLMGW_COMFYUI_DIR)",
  comfyuiCommand: "--comfyui-command (or LLMGW_COMFYUI_COMMAND)",
};

const JOIN_HINT = "llmgw agent join wss://HOST:PORT --token-file FILE --ca-sha256 H";

const serverUrlSchema = z.string().transform((value, ctx) => {
  const url = normaliseServerUrl(value);
  if (url === undefined) {
    ctx.addIssue({
      code: "custom",
      message: `"${value}" is not a wss:// address such as wss://10.0.0.5:8081`,
    });
    return z.NEVER;
  }
  if (url.startsWith("ws://")) {
    ctx.addIssue({
      code: "custom",
      message: `"${value}": the agent port speaks TLS only, so the address is wss://…; a node joins once with ${JOIN_HINT} and then connects with its certificate`,
    });
    return z.NEVER;
  }
  return url;
});

export const agentConfigSchema = z.object({
  serverUrls: z.array(serverUrlSchema).min(1, "give at least one control plane address"),
  /** Used only to join, when the node holds no certificate yet. */
  joinToken: z.string().max(4096, "the token is longer than 4096 characters"),
  /** The pinned CA fingerprint for that join. */
  caSha256: z.string().max(200).default(""),
  nodeName: z
    .string()
    .min(1, "the node name is empty")
    .max(253, "the node name is longer than 253 characters"),
  labels: z.record(z.string(), z.string()),
  simulationProfile: z
    .string()
    .refine((name) => SIMULATION_PROFILE_NAMES.includes(name), {
      message: `unknown profile; allowed: ${SIMULATION_PROFILE_NAMES.join(", ")}`,
    })
    .optional(),
  seed: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .max(2 ** 32 - 1, "must fit in 32 bits")
    .optional(),
  dataDir: z.string().min(1, "the data directory is empty"),
  /** Address engines listen on; loopback unless the control plane is on another machine. */
  engineHost: z.string().min(1, "the engine address is empty").default("127.0.0.1"),
  /** Address the control plane reaches engines at; defaults to engineHost (or the hostname for 0.0.0.0). */
  advertiseHost: z.string().min(1, "the advertised address is empty").optional(),
  /** A Hugging Face hub (or mirror) this node can reach; absent: hub ids fail with how to mirror. */
  hubUrl: z
    .url({
      protocol: /^https?$/,
      message: "must be an http(s):// address such as https://huggingface.co",
    })
    .optional(),
  /**
   * Stop engines when the agent exits. Real nodes keep them running for the next agent to adopt;
   * simulated nodes (dev, tests) stop them, so a stopped demo leaves no simulators behind.
   */
  stopEnginesOnExit: z.boolean().default(false),
  /**
   * Engines this agent builds itself in the background (llama.cpp). A real node installs llama.cpp
   * unless told "none"; a simulated node installs nothing (its simulator stands in for every engine).
   */
  installEngines: z
    .array(
      z.enum(INSTALLABLE_ENGINES, {
        message: `unknown engine; allowed: ${INSTALLABLE_ENGINES.join(", ")} or none`,
      }),
    )
    .default([]),
  /** Where installed engines are built and kept, shared by every agent of this user. */
  engineDir: z.string().min(1, "the engine directory is empty").optional(),
  /** ComfyUI's checkout on this node; when set the node offers engine comfyui (behind its gate). */
  comfyuiDir: z.string().min(1, "the ComfyUI directory is empty").optional(),
  /** How the gate starts ComfyUI there (e.g. a venv's python); default `python main.py`. */
  comfyuiCommand: z.string().trim().min(1, "the ComfyUI command is empty").optional(),
});

export type AgentConfig = z.infer<typeof agentConfigSchema>;

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export interface ConfigSources {
  env: Record<string, string | undefined>;
  hostname: () => string;
  readTextFile: (path: string) => string;
}

/** Parses argv and env; throws ConfigError naming the bad flag and what is allowed. */
export function parseConfig(argv: readonly string[], sources: ConfigSources): AgentConfig {
  const values = parseFlags(argv);
  const dataDir = values["data-dir"] ?? sources.env.LLMGW_AGENT_DATA_DIR ?? DEFAULT_DATA_DIR;
  const raw = {
    serverUrls: serverList(values.server, dataDir, sources),
    joinToken: readJoinToken(values, sources),
    caSha256: values["ca-sha256"] ?? sources.env.LLMGW_CA_SHA256,
    nodeName: values.name ?? sources.hostname(),
    labels: parseLabels(values.label ?? []),
    simulationProfile: values.simulate,
    seed: values.seed,
    dataDir,
    engineHost: values["engine-host"],
    advertiseHost: values["advertise-host"],
    hubUrl: values["hub-url"] ?? sources.env.LLMGW_HUB_URL,
    stopEnginesOnExit: stopEnginesOnExit(values),
    installEngines: installEngines(
      values["install-engines"] ?? sources.env.LLMGW_INSTALL_ENGINES,
      values.simulate !== undefined,
    ),
    engineDir:
      values["engine-dir"] ?? sources.env.LLMGW_ENGINE_DIR ?? defaultEngineDir(sources.env),
    comfyuiDir: values["comfyui-dir"] ?? sources.env.LLMGW_COMFYUI_DIR,
    comfyuiCommand: values["comfyui-command"] ?? sources.env.LLMGW_COMFYUI_COMMAND,
  };
  const parsed = agentConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = must(parsed.error.issues[0], "the first issue of a failed parse");
    const source = SOURCES[String(issue.path[0])] ?? String(issue.path[0]);
    throw new ConfigError(`${source}: ${issue.message}`);
  }
  return parsed.data;
}

/** Reads the real process environment; main.ts calls this, nothing else does. */
export function loadConfig(argv: readonly string[]): AgentConfig {
  return parseConfig(argv, {
    env: process.env,
    hostname: () => os.hostname(),
    readTextFile: (path) => readFileSync(path, "utf8"),
  });
}

/**
 * The environment engines inherit: the agent's own, less its secrets and settings (LLMGW_*), which
 * an engine running a downloaded model has no business reading.
 */
export function engineBaseEnv(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !name.startsWith("LLMGW_")) out[name] = value;
  }
  return out;
}

/** The data directory `llmgw doctor` reads: --data-dir, else as the agent would choose it. */
export function doctorDataDir(flag: string | undefined): string {
  return flag ?? process.env.LLMGW_AGENT_DATA_DIR ?? DEFAULT_DATA_DIR;
}

/** Reads the real process environment for engines; main.ts calls this. */
export function loadEngineBaseEnv(): Record<string, string> {
  return engineBaseEnv(process.env);
}

/** "llamacpp" (or a comma list), "none"; unset: llama.cpp on a real node, nothing when simulated. */
function installEngines(given: string | undefined, isSimulated: boolean): string[] {
  if (given === undefined) return isSimulated ? [] : ["llamacpp"];
  const names = splitList([given]);
  return names.length === 1 && names[0] === "none" ? [] : names;
}

function stopEnginesOnExit(values: {
  simulate?: string;
  "stop-engines-on-exit"?: boolean;
  "keep-engines-on-exit"?: boolean;
}): boolean {
  if (values["stop-engines-on-exit"] && values["keep-engines-on-exit"]) {
    throw new ConfigError("--stop-engines-on-exit and --keep-engines-on-exit both given; use one");
  }
  if (values["keep-engines-on-exit"]) return false;
  return values["stop-engines-on-exit"] ?? values.simulate !== undefined;
}

function parseFlags(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: AGENT_FLAGS,
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    const allowed = Object.keys(AGENT_FLAGS)
      .map((flag) => `--${flag}`)
      .join(", ");
    throw new ConfigError(`${messageOf(error)}; allowed flags: ${allowed}`);
  }
}

function readJoinToken(
  values: { token?: string; "token-file"?: string },
  sources: ConfigSources,
): string {
  if (values.token !== undefined && values["token-file"] !== undefined) {
    throw new ConfigError(
      "--token and --token-file both given; use one (LLMGW_JOIN_TOKEN or --token-file keeps it out of ps)",
    );
  }
  const path = values["token-file"];
  if (path === undefined) return values.token ?? sources.env.LLMGW_JOIN_TOKEN ?? "";
  try {
    return sources.readTextFile(path).trim();
  } catch (error) {
    throw new ConfigError(
      `--token-file ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? messageOf(error)})`,
    );
  }
}

/** --server, else LLMGW_SERVERS, else the addresses remembered at join, else the default. */
function serverList(
  flags: readonly string[] | undefined,
  dataDir: string,
  sources: ConfigSources,
): string[] {
  if (flags) return splitList(flags);
  if (sources.env.LLMGW_SERVERS) return splitList([sources.env.LLMGW_SERVERS]);
  const remembered = loadServerUrls(dataDir, sources.readTextFile);
  return remembered.length > 0 ? remembered : [DEFAULT_SERVER];
}

function splitList(values: readonly string[]): string[] {
  return values
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
}

const LABEL_KEY = /^[A-Za-z0-9]([A-Za-z0-9._/-]{0,61}[A-Za-z0-9])?$/;

function parseLabels(pairs: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const key = at < 0 ? "" : pair.slice(0, at);
    if (!LABEL_KEY.test(key)) {
      throw new ConfigError(
        `--label "${pair}": expected key=value with a key of letters, digits, ".", "_", "/" or "-" (e.g. --label rack=r12)`,
      );
    }
    labels[key] = pair.slice(at + 1);
  }
  return labels;
}

/** Accepts wss://host:port (or with the agent path already on it) and returns it without the path. */
function normaliseServerUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:") return undefined;
  const path = url.pathname.replace(/\/+$/, "");
  if (path !== "" && path !== AGENT_WS_PATH) return undefined;
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "")
    return undefined;
  return `${url.protocol}//${url.host}`;
}

/** The address the agent dials: the server address plus the agent path. */
export function agentSocketUrl(serverUrl: string): string {
  return `${serverUrl}${AGENT_WS_PATH}`;
}
