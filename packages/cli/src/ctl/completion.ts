// `llmgw ctl completion bash|zsh`: a script that completes llmgw's commands, `llmgw ctl`'s
// commands, their verbs and their flags. It is made from the same table the parser uses, so a
// new command or flag completes without anyone touching this file.
import { Argument, type Command as Program } from "commander";
import { TOP_COMMANDS } from "../top-commands";
import type { Command } from "./commands/command";
import { verbsOf } from "./commands/index";

const SHELLS = ["bash", "zsh"] as const;
type Shell = (typeof SHELLS)[number];

interface Completion {
  name: string;
  verbs: string[];
  flags: string[];
}

/** What follows `llmgw ctl`: each command with its verbs and flags. */
function completionsOf(program: Program, table: Readonly<Record<string, Command>>): Completion[] {
  return program.commands.map((command) => ({
    name: command.name(),
    verbs:
      command.name() === "completion" ? [...SHELLS] : verbsOf(table[command.name()]?.usage ?? ""),
    flags: [...command.options.flatMap((option) => [option.short, option.long]), "--help"].filter(
      (flag): flag is string => flag !== undefined,
    ),
  }));
}

const words = (list: readonly string[]) => list.join(" ");

function bashScript(completions: readonly Completion[]): string {
  const cases = completions
    .map((c) => `    ${c.name}) verbs="${words(c.verbs)}"; flags="${words(c.flags)}" ;;`)
    .join("\n");
  return `# llmgw completion for bash: source it, or save it under bash-completion's completions folder.
_llmgw() {
  local cur=\${COMP_WORDS[COMP_CWORD]} verbs="" flags=""
  if (( COMP_CWORD == 1 )); then
    COMPREPLY=($(compgen -W "${words(Object.keys(TOP_COMMANDS))}" -- "$cur")); return
  fi
  [[ \${COMP_WORDS[1]} == ctl ]] || return
  if (( COMP_CWORD == 2 )); then
    COMPREPLY=($(compgen -W "${words(completions.map((c) => c.name))}" -- "$cur")); return
  fi
  case \${COMP_WORDS[2]} in
${cases}
  esac
  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif (( COMP_CWORD == 3 )); then COMPREPLY=($(compgen -W "$verbs" -- "$cur"))
  fi
}
complete -o default -F _llmgw llmgw
`;
}

function zshScript(completions: readonly Completion[]): string {
  const cases = completions
    .map((c) => `    ${c.name}) verbs=(${words(c.verbs)}); flags=(${words(c.flags)}) ;;`)
    .join("\n");
  return `#compdef llmgw
# llmgw completion for zsh: source it after compinit, or save it as _llmgw in your $fpath.
_llmgw() {
  local -a verbs flags
  if (( CURRENT == 2 )); then compadd -- ${words(Object.keys(TOP_COMMANDS))}; return; fi
  [[ \${words[2]} == ctl ]] || return
  if (( CURRENT == 3 )); then compadd -- ${words(completions.map((c) => c.name))}; return; fi
  case \${words[3]} in
${cases}
  esac
  if [[ $PREFIX == -* ]]; then compadd -- $flags
  elif (( CURRENT == 4 )); then compadd -- $verbs
  else _files
  fi
}
compdef _llmgw llmgw
`;
}

export function addCompletionCommand(
  program: Program,
  table: Readonly<Record<string, Command>>,
): Program {
  return program
    .command("completion")
    .description("print a shell completion script for llmgw (bash or zsh)")
    .addArgument(new Argument("<shell>", "the shell").choices(SHELLS))
    .addHelpText(
      "after",
      "\nbash: source <(llmgw ctl completion bash)\nzsh:  source <(llmgw ctl completion zsh)",
    )
    .action((shell: Shell) => {
      const completions = completionsOf(program, table);
      process.stdout.write(shell === "bash" ? bashScript(completions) : zshScript(completions));
    });
}
