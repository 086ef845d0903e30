// Dispatches `llmgw <command>`. Each command's module is loaded only when it runs, so `llmgw ctl`
// does not pay for the server's database driver.

const USAGE = `usage: llmgw <command> [options]

commands:
  server     run the control plane (API on LLMGW_PORT, agents on LLMGW_AGENT_PORT)
  agent      run a node agent (--server ws://HOST:8081, LLMGW_JOIN_TOKEN; --simulate PROFILE)
  web        run the console (LLMGW_WEB_PORT, LLMGW_API_URL)
  ctl        talk to a running server (login, nodes, models, replicas, status, logs, …; --help)
  sim-engine run a simulated OpenAI-compatible engine (--port, --model, --fault …; key in SIM_ENGINE_API_KEY)
  dev        server on embedded PGlite + console + a simulated fleet, in one command
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "server":
      await (await import("@llmgw/server")).runServer(rest);
      return Number(process.exitCode ?? 0);
    case "agent": {
      const agent = await import("@llmgw/agent");
      try {
        await agent.runAgent(rest);
      } catch (error) {
        if (!(error instanceof agent.ConfigError)) throw error;
        process.stderr.write(`llmgw agent: ${error.message}\n`);
        return 2;
      }
      return Number(process.exitCode ?? 0);
    }
    case "web":
      return (await import("./web")).runWeb(rest);
    case "ctl":
      return (await import("./ctl/ctl")).runCtl(rest);
    case "sim-engine":
      return (await import("@llmgw/sim-engine")).runSimEngine(rest);
    case "dev":
      return (await import("./dev")).runDev(rest);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`llmgw: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}
