// API keys for /v1: create (the key is printed once), list, revoke.
import type { CreateKeyInput, KeyView } from "@llmgw/api";
import {
  parseCountFlag,
  parseDurationSeconds,
  required,
  UsageError,
  type CtlValues,
} from "../args";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

const KEYS_USAGE =
  "keys create --owner team:ml --models 'qwen*' [--rpm N] [--tpm N] [--max-concurrent N] [--residency local] [--no-store] [--expires 30d] [--json] | list [--json] | revoke ID";

/** What `keys create` sends, from its flags; a missing or bad flag is named with the usage. */
export function createKeyInput(values: CtlValues): CreateKeyInput {
  const { owner, models } = values;
  if (!owner)
    throw new UsageError(`--owner is missing (team:ml, user:ada, …); usage: ${KEYS_USAGE}`);
  if (!models)
    throw new UsageError(
      `--models is missing (names or patterns, comma-separated; '*' for all); usage: ${KEYS_USAGE}`,
    );
  return {
    owner,
    models: models
      .split(",")
      .map((m) => m.trim())
      .filter(Boolean),
    requestsPerMinute: parseCountFlag("rpm", values.rpm),
    tokensPerMinute: parseCountFlag("tpm", values.tpm),
    concurrentMax: parseCountFlag("max-concurrent", values["max-concurrent"]),
    residency: residencyFlag(values.residency),
    noStore: values["no-store"] === true ? true : undefined,
    expiresInSeconds:
      values.expires === undefined ? undefined : parseDurationSeconds("expires", values.expires),
  };
}

async function createKey(ctx: CommandContext): Promise<number> {
  const created = await ctx.api.keys.create.mutate(createKeyInput(ctx.values));
  if (ctx.values.json) printJson(ctx, { key: created.key, ...created.view });
  else
    ctx.write(
      `${created.key}\n\nkey ${created.view.id} for ${created.view.owner}; this is the only time it is shown, so store it now\n`,
    );
  return 0;
}

function residencyFlag(value: string | undefined): "any" | "local" | undefined {
  if (value === undefined || value === "any" || value === "local") return value;
  throw new UsageError(`--residency ${value}: give local (never sent to a peer cluster) or any`);
}

const limitText = (value: number | null) => (value === null ? "-" : String(value));

function keysTable(keys: readonly KeyView[]): string {
  const rows = keys.map((k) => [
    k.id,
    `llmgw_${k.prefix}_…`,
    k.owner,
    k.models.join(","),
    `${limitText(k.requestsPerMinute)}/${limitText(k.tokensPerMinute)}/${limitText(k.concurrentMax)}`,
    k.state,
    k.expiresAt ?? "never",
    k.lastUsedAt ?? "never",
  ]);
  return renderTable(
    ["ID", "KEY", "OWNER", "MODELS", "RPM/TPM/CONC", "STATE", "EXPIRES", "LAST USED"],
    rows,
  );
}

async function keysCommand(ctx: CommandContext): Promise<number> {
  const [verb, ...rest] = ctx.args;
  switch (verb) {
    case "create":
      return createKey(ctx);
    case "list":
    case undefined: {
      const keys = await ctx.api.keys.list.query();
      if (ctx.values.json) printJson(ctx, keys);
      else
        ctx.write(
          keys.length === 0
            ? "no API keys yet; make one with `llmgw ctl keys create --owner team:ml --models '*'`\n"
            : keysTable(keys),
        );
      return 0;
    }
    case "revoke": {
      const key = await ctx.api.keys.revoke.mutate({
        id: required(rest, 0, "ID", "keys revoke ID"),
      });
      ctx.write(
        `key ${key.id} (${key.owner}) is revoked; requests with it are refused from now on\n`,
      );
      return 0;
    }
    default:
      throw new UsageError(`unknown keys command "${verb}"; usage: ${KEYS_USAGE}`);
  }
}

export const keyCommands: Record<string, Command> = {
  keys: {
    usage: KEYS_USAGE,
    summary: "API keys for /v1: create (shown once), list, revoke",
    flags: [
      "owner",
      "models",
      "rpm",
      "tpm",
      "max-concurrent",
      "residency",
      "no-store",
      "expires",
      "json",
    ],
    takesArguments: true,
    run: keysCommand,
  },
};
