// Flags and positional arguments of `llmgw ctl`, parsed and checked before anything is sent.
import { parseArgs } from "node:util";
import { CtlError } from "./client";

export const OPTIONS = {
  server: { type: "string" },
  user: { type: "string" },
  "password-stdin": { type: "boolean" },
  json: { type: "boolean" },
  model: { type: "string" },
  node: { type: "string" },
  source: { type: "string" },
  lines: { type: "string", short: "n" },
  follow: { type: "boolean", short: "f" },
  collect: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  owner: { type: "string" },
  models: { type: "string" },
  rpm: { type: "string" },
  tpm: { type: "string" },
  "max-concurrent": { type: "string" },
  expires: { type: "string" },
  since: { type: "string" },
  kind: { type: "string" },
  severity: { type: "string" },
  subject: { type: "string" },
  limit: { type: "string" },
  "token-stdin": { type: "boolean" },
  role: { type: "string" },
  scope: { type: "string" },
  group: { type: "string" },
  home: { type: "string" },
  email: { type: "string" },
  "display-name": { type: "string" },
  parent: { type: "string" },
  "external-id": { type: "string" },
  url: { type: "string" },
  description: { type: "string" },
  timeout: { type: "string" },
  rate: { type: "string" },
  header: { type: "string", multiple: true },
  "bearer-file": { type: "string" },
  "key-file": { type: "string" },
  "secret-file": { type: "string" },
  "secret-header": { type: "string" },
  to: { type: "string" },
  tools: { type: "string" },
} as const;

export type CtlValues = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>["values"];

/** A mistake in how the command was typed: exit code 2 and the usage, as other CLIs do. */
export class UsageError extends CtlError {}

export interface ParsedCtlArgs {
  command: string | undefined;
  args: string[];
  values: CtlValues;
}

export function parseCtlArgs(argv: string[]): ParsedCtlArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [command, ...args] = parsed.positionals;
  return { command, args, values: parsed.values };
}

/** The positional argument at `index`, or a usage error naming it. */
export function required(args: string[], index: number, name: string, usage: string): string {
  const value = args[index];
  if (value === undefined || value === "")
    throw new UsageError(`${name} is missing; usage: ${usage}`);
  return value;
}

export const LOG_LINES_MAX = 2_000;

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
  const match = /^(\d+)([smhdw])$/.exec(value.trim());
  if (!match || Number(match[1]) === 0)
    throw new UsageError(`--${flag} takes a duration like 30d, 12h or 90m, not "${value}"`);
  return Number(match[1]) * DURATION_UNITS_S[match[2]!]!;
}

/** A positive whole number from a flag, or undefined when the flag is absent. */
export function parseCountFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new UsageError(`--${flag} takes a whole number of at least 1, not "${value}"`);
  return count;
}
