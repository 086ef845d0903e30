// `llmgw ctl`: the command-line face of the tRPC API. Each command lives in the table in
// commands/, program.ts reads the command line against it, and this file runs the chosen command
// and turns failures into one clear sentence.
import { ctlEnv } from "../config";
import { UsageError } from "./args";
import { createApiClient, explain } from "./client";
import { resolveTarget } from "./credentials";
import { parseCtlArgs, type ParsedCtlArgs } from "./program";

async function runCommand({ name, entry, args, values }: ParsedCtlArgs): Promise<number> {
  const env = ctlEnv();
  const target = resolveTarget(env, values.server);
  try {
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
    process.stderr.write(`llmgw ctl ${name}: ${explain(error, target.server)}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

export async function runCtl(argv: string[]): Promise<number> {
  const parsed = parseCtlArgs(argv);
  return typeof parsed === "number" ? parsed : runCommand(parsed);
}
