// Entry point for running the agent directly: `tsx apps/agent/src/bin.ts --simulate h100x8`.
import { ConfigError } from "./config";
import { runAgent } from "./main";

runAgent(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `llmgw agent: ${error instanceof ConfigError ? error.message : String((error as Error).stack ?? error)}\n`,
    );
    process.exit(error instanceof ConfigError ? 2 : 1);
  },
);
