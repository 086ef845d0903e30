// Flags and positional arguments of `llmgw ctl`, checked before anything is sent. Every flag is
// defined once here, with the words its help shows; each command names the flags it accepts.
import { CtlError } from "./client";

interface FlagDefinition {
  /** Names the flag's value in help; a flag without one is a switch. */
  value?: string;
  short?: string;
  /** The flag may be given more than once; its values are kept in order. */
  isRepeatable?: boolean;
  help: string;
}

export const FLAGS = {
  server: {
    value: "URL",
    help: "the server (else LLMGW_SERVER, the last login, http://127.0.0.1:8080)",
  },
  user: { value: "NAME", help: "a person's username" },
  "password-stdin": { help: "read the password from standard input" },
  "token-stdin": { help: "sign in with a token made in the console, read from standard input" },
  json: { help: "print JSON for scripts instead of a table" },
  model: { value: "M", help: "only this model" },
  node: { value: "N", help: "only this node" },
  source: { value: "REPLICA", help: "a replica's engine output instead of the agent's log" },
  lines: { value: "N", short: "n", help: "how many lines, 1 to 2000 (default 200)" },
  follow: { short: "f", help: "keep printing new lines, asking every 2 s (Ctrl-C stops)" },
  request: {
    value: "ID",
    help: "logs: only the lines naming this request id (X-Request-Id), from every source",
  },
  collect: { help: "delete the unused weights" },
  seconds: { value: "N", help: "fabric-test: how long each rail runs, 1 to 60 (default 5)" },
  owner: { value: "OWNER", help: "an owner such as team:ml or user:ada" },
  models: { value: "LIST", help: "model names or patterns, comma-separated ('*' for all)" },
  rpm: { value: "N", help: "requests per minute at most" },
  tpm: { value: "N", help: "tokens per minute at most" },
  "max-concurrent": { value: "N", help: "requests in flight at most" },
  residency: { value: "local|any", help: "local: the key's requests never go to a peer cluster" },
  "no-store": {
    help: "what the key sends is never kept outside this cluster (never sent to a peer)",
  },
  expires: { value: "DURATION", help: "lifetime such as 30d, 12h or 90m" },
  ttl: { value: "DURATION", help: "how long a join token works, such as 1h (default) or 7d" },
  uses: { value: "N", help: "how many nodes may join with the token (default: any)" },
  since: { value: "WHEN", help: "a duration back (24h) or an ISO time" },
  kind: { value: "LIST", help: "event kinds, comma-separated" },
  severity: { value: "LIST", help: "info, warning, error, comma-separated" },
  subject: { value: "TYPE[:ID]", help: "node, model, replica, key or release, with an id or not" },
  limit: {
    value: "N|AMOUNTS",
    help: "how many at most (default 50); for quota set, the most the scope may hold (gpus=H100-80G:32,cores=128,memory=1TiB)",
  },
  guarantee: {
    value: "AMOUNTS",
    help: "what the scope is guaranteed, such as gpus=H100-80G:16,cores=64,memory=512GiB",
  },
  clear: { help: "take the value away (model owner: the model has no owner)" },
  role: { value: "R", help: "admin, operator or viewer" },
  scope: { value: "OWNER", help: "where a grant holds (default the whole cluster)" },
  group: { value: "NAME", help: "a group's name" },
  home: { value: "OWNER", help: "the person's home team, such as team:ml" },
  email: { value: "E", help: "e-mail address" },
  "display-name": { value: "N", help: "the name shown in the console" },
  parent: { value: "OWNER", help: "the org a team belongs to, such as org:acme" },
  "external-id": { value: "ID", help: "the group's id in the directory" },
  url: { value: "URL", help: "the MCP server's or peer cluster's address" },
  "send-tags": { help: "send the caller's attribution (key owner and prefix) to the peer" },
  description: { value: "TEXT", help: "what the server is for" },
  timeout: {
    value: "DURATION",
    help: "how long a call (or, for upgrade, one node) may take, such as 30s",
  },
  sums: {
    value: "FILE",
    help: "the SHA256SUMS to check a release against (default: the one beside it)",
  },
  rate: { value: "N", help: "calls per minute at most" },
  header: { value: "'NAME: VALUE'", isRepeatable: true, help: "a header sent with every call" },
  "bearer-file": { value: "F", help: "a file holding the bearer token (sealed by the server)" },
  "key-file": {
    value: "F",
    help: "a file holding the provider's or peer's key (sealed by the server)",
  },
  "secret-file": { value: "F", help: "a file holding a header secret (sealed by the server)" },
  "secret-header": { value: "NAME", help: "the header that carries --secret-file (X-Api-Key)" },
  to: { value: "SUBJECT", help: "org:, team:, project:, user: or key:ID" },
  tools: { value: "LIST", help: "tool names or patterns, comma-separated ('*' for all)" },
  profile: { value: "P", help: "the model's profile to size (default its first)" },
  "in-place": {
    help: "stop each replica before its replacement starts (for a fleet with no room beside)",
  },
  slots: { value: "N", help: "sequences served at once, each with the whole context" },
  rank: { value: "N", help: "a LoRA adapter's rank, checked against each engine's limit" },
  cores: { value: "N", help: "CPU cores each replica needs on its node" },
  memory: { value: "SIZE", help: "host memory each replica needs on its node, such as 8GiB" },
  domain: { value: "KIND=VALUE", help: "only nodes in this facility domain, such as rack=r12" },
  drain: { help: "also move the replicas off, each after its replacement is ready elsewhere" },
  "applies-to": {
    value: "LIST",
    help: "who a guard policy covers: '*', team:NAME, user:NAME, key:ID, comma-separated",
  },
  stages: { value: "LIST", help: "prompt, answer, tool_args, tool_result, comma-separated" },
  checks: { value: "LIST", help: "injection, pii, comma-separated" },
  judge: { value: "MODEL", help: "the catalog model that judges what rules cannot see" },
  fail: { value: "closed|open", help: "when the judge is slow or down: refuse, or let through" },
  "budget-ms": { value: "MS", help: "how long a judgment may take, in milliseconds" },
  burst: { value: "N", help: "judgments sent at once after the timed ones" },
  config: {
    value: "FILE",
    isRepeatable: true,
    help: "a model's config.json to size as well (give it again for more)",
  },
  replica: { value: "ID", help: "bench: this replica (default: the model's first ready one)" },
  gateway: { help: "bench: through the cluster's /v1 with an API key, not straight to a replica" },
  "api-key-file": {
    value: "F",
    help: "bench --gateway: a file holding the llmgw API key (else LLMGW_API_KEY)",
  },
  concurrency: { value: "LIST", help: "bench: requests in flight per step (default 1,4,16)" },
  requests: {
    value: "N",
    help: "bench: requests per step (default 4 × its concurrency, at least 8)",
  },
  "prompt-tokens": { value: "N", help: "bench: about how long each prompt is (default 256)" },
  "max-tokens": { value: "N", help: "bench: tokens each answer asks for (default 128)" },
} as const satisfies Record<string, FlagDefinition>;

export type FlagName = keyof typeof FLAGS;

type FlagValue<F> = F extends { isRepeatable: true }
  ? string[]
  : F extends { value: string }
    ? string
    : boolean;

/** The flags given on the command line, by their long name. */
export type CtlValues = { [Name in FlagName]?: FlagValue<(typeof FLAGS)[Name]> };

/** A mistake in how the command was typed: exit code 2 and the usage, as other CLIs do. */
export class UsageError extends CtlError {}

/** The positional argument at `index`, or a usage error naming it. */
export function required(args: string[], index: number, name: string, usage: string): string {
  const value = args[index];
  if (value === undefined || value === "")
    throw new UsageError(`${name} is missing; usage: ${usage}`);
  return value;
}

const LOG_LINES_MAX = 2_000;

export function parseLinesFlag(value: string | undefined): number {
  if (value === undefined) return 200;
  const lines = Number(value);
  if (!Number.isInteger(lines) || lines < 1 || lines > LOG_LINES_MAX) {
    throw new UsageError(
      `-n takes a whole number of lines from 1 to ${LOG_LINES_MAX}, not "${value}"`,
    );
  }
  return lines;
}

/** fabric-test --seconds: absent leaves the server's default. */
export function parseSecondsFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 60)
    throw new UsageError(`--seconds takes a whole number from 1 to 60, not "${value}"`);
  return seconds;
}

/** `A,B` → ["A", "B"]; `none` or an empty argument clears the list. */
export function parseFallbacks(value: string): string[] {
  if (value.trim() === "" || value.trim() === "none") return [];
  return value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

const DURATION_UNITS_S: Readonly<Record<string, number>> = {
  s: 1,
  m: 60,
  h: 3_600,
  d: 86_400,
  w: 604_800,
};

/** `30d`, `12h`, `90m`, `45s`, `2w` → seconds; a usage error for anything else. */
export function parseDurationSeconds(flag: string, value: string): number {
  const [, count, unit] = /^(\d+)([smhdw])$/.exec(value.trim()) ?? [];
  const unitSeconds = unit === undefined ? undefined : DURATION_UNITS_S[unit];
  if (unitSeconds === undefined || Number(count) === 0)
    throw new UsageError(`--${flag} takes a duration like 30d, 12h or 90m, not "${value}"`);
  return Number(count) * unitSeconds;
}

/** A positive whole number from a flag, or undefined when the flag is absent. */
export function parseCountFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new UsageError(`--${flag} takes a whole number of at least 1, not "${value}"`);
  return count;
}
