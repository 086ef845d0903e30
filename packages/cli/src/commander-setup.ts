// How `llmgw` and `llmgw ctl` drive commander alike: mistakes read `PREFIX: what was wrong` with a
// pointer to the help, and end in exit code 2 rather than in process.exit inside the library.
import { CommanderError, type Command as Program } from "commander";

/** Mistakes are reported as `PREFIX: what was wrong`, followed by `helpHint`. */
export function reportErrors(program: Program, prefix: string, helpHint: string): Program {
  return program
    .exitOverride()
    .showHelpAfterError(helpHint)
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
      outputError: (text, write) => write(`${prefix}: ${text.replace(/^error: /, "")}`),
    });
}

/**
 * Parses `argv` (the program's actions only note what was chosen). Answers the exit code to end
 * with when parsing ends the run: 2 with the usage on stdout for an empty line, 0 after help, 2
 * for a mistake; undefined when a command was chosen.
 */
export function parseOrExitCode(program: Program, argv: string[]): number | undefined {
  if (argv.length === 0) {
    process.stdout.write(program.helpInformation());
    return 2;
  }
  try {
    program.parse(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return undefined;
}
