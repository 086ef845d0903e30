// What every `llmgw ctl` command receives, and the shape of the command table.
import type { CtlEnv } from "../../config";
import type { CtlValues, FlagName } from "../args";
import type { ApiClient } from "../client";

export interface CommandContext {
  api: ApiClient;
  env: CtlEnv;
  target: { server: string; token: string | null };
  values: CtlValues;
  /** Positional arguments after the command name. */
  args: string[];
  write(text: string): void;
  writeError(text: string): void;
  nowMs(): number;
}

export interface Command {
  /** `models [--json]`: what follows `llmgw ctl`, shown in the usage. */
  usage: string;
  summary: string;
  /** The flags this command accepts besides --server and --help; any other is refused. */
  flags: readonly FlagName[];
  /** Whether it takes positional arguments (a verb, a name); without, extra words are refused. */
  takesArguments?: boolean;
  run(ctx: CommandContext): Promise<number>;
}

export function printJson(ctx: CommandContext, value: unknown): void {
  ctx.write(`${JSON.stringify(value, null, 2)}\n`);
}
