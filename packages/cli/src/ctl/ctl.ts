// `llmgw ctl`: the command-line face of the tRPC API. Each command lives in the table in
// commands/; this file parses, dispatches and turns failures into one clear sentence.
import { ctlEnv } from "../config";
import { parseCtlArgs, UsageError, type ParsedCtlArgs } from "./args";
import { createApiClient, explain } from "./client";
import { COMMANDS, usageText } from "./commands/index";
import { resolveTarget } from "./credentials";

export async function runCtl(argv: string[]): Promise<number> {
  let parsed: ParsedCtlArgs;
  try {
    parsed = parseCtlArgs(argv);
  } catch (error) {
    process.stderr.write(`llmgw ctl: ${(error as Error).message}\n\n${usageText()}`);
    return 2;
  }
  const { command, args, values } = parsed;
  if (!command || values.help) {
    process.stdout.write(usageText());
    return command || values.help ? 0 : 2;
  }
  const env = ctlEnv();
  const target = resolveTarget(env, values.server);
  try {
    const entry = COMMANDS[command];
    if (!entry) throw new UsageError(`unknown command "${command}"; see \`llmgw ctl --help\``);
    return await entry.run({
      api: createApiClient(target.server, target.token),
      env,
      target,
      values,
      args,
      write: (text) => process.stdout.write(text),
      writeError: (text) => process.stderr.write(text),
      nowMs: () => Date.now(),
    });
  } catch (error) {
    process.stderr.write(`llmgw ctl ${command}: ${explain(error, target.server)}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
