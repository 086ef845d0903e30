// Dispatches `llmgw <command>` through commander. Each command's module is loaded only when it
// runs, so `llmgw ctl` does not pay for the server's database driver; each parses its own flags,
// so everything after the command's name is handed to it untouched.
import { LLMGW_VERSION } from "@llmgw/domain";
import { takeLauncherPreload } from "@llmgw/release/launcher";
import { Command as Program } from "commander";
import { parseOrExitCode, reportErrors } from "./commander-setup";
import { TOP_COMMANDS, type TopCommandName } from "./top-commands";

type Runner = (argv: string[]) => Promise<number>;

const RUNNERS: Record<TopCommandName, Runner> = {
  async server(argv) {
    await (await import("@llmgw/server")).runServer(argv);
    return Number(process.exitCode ?? 0);
  },
  async agent(argv) {
    const agent = await import("@llmgw/agent");
    try {
      // 75 after a self-upgrade: the supervisor starts the new release.
      const code = await agent.runAgent(argv);
      if (code !== 0) return code;
    } catch (error) {
      if (!(error instanceof agent.ConfigError)) throw error;
      process.stderr.write(`llmgw agent: ${error.message}\n`);
      return 2;
    }
    return Number(process.exitCode ?? 0);
  },
  doctor: async (argv) => (await import("./doctor")).runDoctor(argv),
  web: async (argv) => (await import("./web")).runWeb(argv),
  ctl: async (argv) => (await import("./ctl/ctl")).runCtl(argv),
  "sim-engine": async (argv) => (await import("@llmgw/sim-engine")).runSimEngine(argv),
  "comfyui-gate": async (argv) =>
    (await import("@llmgw/engines/comfyui-gate")).runComfyuiGate(argv),
  "sim-comfyui": async (argv) => (await import("@llmgw/sim-engine")).runSimComfyui(argv),
  dev: async (argv) => (await import("./dev")).runDev(argv),
};

function llmgwProgram(run: (name: TopCommandName, argv: string[]) => void): Program {
  const program = reportErrors(new Program("llmgw"), "llmgw", "see `llmgw --help` for the commands")
    .usage("<command> [options]")
    .version(LLMGW_VERSION, "-V, --version", "print the version of llmgw and exit")
    .enablePositionalOptions()
    .configureHelp({ subcommandTerm: (command) => command.name() });
  for (const [name, summary] of Object.entries(TOP_COMMANDS) as [TopCommandName, string][]) {
    program
      .command(name)
      .description(summary)
      .usage("[options]")
      .helpOption(false)
      .passThroughOptions()
      .allowUnknownOption()
      .argument("[args...]")
      .action((argv: string[]) => run(name, argv));
  }
  return program;
}

export async function main(argv: string[]): Promise<number> {
  // The allocator a release's launcher preloaded is this process's alone, not its children's.
  takeLauncherPreload();
  let chosen: { name: TopCommandName; argv: string[] } | undefined;
  const program = llmgwProgram((name, rest) => {
    chosen = { name, argv: rest };
  });
  const exitCode = parseOrExitCode(program, argv);
  if (exitCode !== undefined) return exitCode;
  return chosen ? RUNNERS[chosen.name](chosen.argv) : 0;
}
