// The commander program behind `llmgw ctl`: one subcommand per entry of the command table, with
// the flags that command declares, so help, refusals and shell completion come from one source.
import { Command as Program, Option } from "commander";
import { parseOrExitCode, reportErrors } from "../commander-setup";
import { FLAGS, type CtlValues, type FlagName } from "./args";
import type { Command } from "./commands/command";
import { COMMANDS, usageForms, verbsOf } from "./commands/index";
import { addCompletionCommand } from "./completion";

/** Every command accepts these; the others are the command's own. */
const COMMON_FLAGS: readonly FlagName[] = ["server"];
/** A first usage form longer than this is shortened in the command list to its verbs. */
const LIST_TERM_MAX = 56;

const CTL_EPILOGUE = `
The server comes from --server, LLMGW_SERVER, or the last login (default http://127.0.0.1:8080);
LLMGW_TOKEN overrides the saved session token. Failures exit non-zero with the reason: 2 for a
mistyped command line, 1 for a refused or failed request. \`llmgw ctl completion bash|zsh\`
prints a shell completion script.`;

function flagOption(name: FlagName): Option {
  const flag: { value?: string; short?: string; isRepeatable?: boolean; help: string } =
    FLAGS[name];
  const short = flag.short ? `-${flag.short}, ` : "";
  const option = new Option(`${short}--${name}${flag.value ? ` <${flag.value}>` : ""}`, flag.help);
  if (flag.isRepeatable)
    option.argParser((value: string, previous: string[] | undefined) => [
      ...(previous ?? []),
      value,
    ]);
  return option;
}

/** The flags given to `command`, keyed by their long names as the command table spells them. */
function valuesOf(command: Program): CtlValues {
  const entries = command.options
    .map((option) => [option.name(), optionValue(command, option)] as const)
    .filter(([, value]) => value !== undefined);
  return Object.fromEntries(entries);
}

/**
 * Commander reads a flag spelled `--no-X` as "X, on unless turned off" (true when absent, false
 * when given); in the table it is a flag of its own, `no-X`: true when given, absent otherwise.
 */
function optionValue(command: Program, option: Option): unknown {
  if (!option.negate) return command.getOptionValue(option.attributeName());
  return command.getOptionValueSource(option.attributeName()) === "cli" ? true : undefined;
}

/** The line that names a command in `llmgw ctl --help`. */
function listTerm(name: string, command: Command): string {
  const [first = name] = usageForms(command.usage);
  if (first.length <= LIST_TERM_MAX) return first;
  const verbs = verbsOf(command.usage);
  return verbs.length > 0 ? `${name} ${verbs.join("|")} …` : `${name} [options]`;
}

/** A command line read against the table: which command, its words and its flags. */
export interface ParsedCtlArgs {
  name: string;
  entry: Command;
  args: string[];
  values: CtlValues;
}

type CtlAction = (parsed: ParsedCtlArgs) => void;

function ctlProgram(commands: Readonly<Record<string, Command>>, action: CtlAction): Program {
  const program = reportErrors(
    new Program("llmgw ctl"),
    "llmgw ctl",
    "see `llmgw ctl --help` for the commands",
  )
    .usage("<command> [options]")
    .description("talk to a running llmgw server")
    .addHelpText("after", CTL_EPILOGUE)
    .configureHelp({
      subcommandTerm: (sub) => {
        const entry = commands[sub.name()];
        return entry ? listTerm(sub.name(), entry) : sub.name() + " " + sub.usage();
      },
    });
  for (const [name, entry] of Object.entries(commands)) {
    const [first = name, ...others] = usageForms(entry.usage);
    const sub = reportErrors(
      program.command(name),
      `llmgw ctl ${name}`,
      `see \`llmgw ctl ${name} --help\``,
    )
      .description(entry.summary)
      .usage(first.slice(name.length + 1) || "[options]")
      .allowExcessArguments(entry.takesArguments === true);
    if (others.length > 0)
      sub.addHelpText(
        "after",
        `\nAlso:\n${others.map((form) => `  llmgw ctl ${name} ${form}`).join("\n")}`,
      );
    for (const flag of [...entry.flags, ...COMMON_FLAGS]) sub.addOption(flagOption(flag));
    sub.action(() => action({ name, entry, args: sub.args, values: valuesOf(sub) }));
  }
  return program;
}

/**
 * Reads `argv` against the command table. Help, the completion script and mistakes are printed
 * here; they answer the exit code to end with (0 after help, 2 for a mistyped line).
 */
export function parseCtlArgs(
  argv: string[],
  commands: Readonly<Record<string, Command>> = COMMANDS,
): ParsedCtlArgs | number {
  let parsed: ParsedCtlArgs | undefined;
  const program = ctlProgram(commands, (chosen) => {
    parsed = chosen;
  });
  reportErrors(
    addCompletionCommand(program, commands),
    "llmgw ctl completion",
    "see `llmgw ctl completion --help`",
  );
  const exitCode = parseOrExitCode(program, argv);
  if (exitCode !== undefined) return exitCode;
  return parsed ?? 0;
}
