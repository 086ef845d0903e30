// `llmgw web`: serves the built console with `next start`, pointing its tRPC proxy at the server.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { WEB_DIR } from "./paths";
import { inheritedEnv, webConfig } from "./config";

export async function runWeb(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { port: { type: "string" } }, strict: true });
  const config = webConfig(values.port);
  if (!existsSync(join(WEB_DIR, ".next", "BUILD_ID"))) {
    process.stderr.write(
      "llmgw web: the console is not built; run `npm start` once, or `npm run build:web`\n",
    );
    return 1;
  }
  const nextBin = createRequire(join(WEB_DIR, "package.json")).resolve("next/dist/bin/next");
  const child = spawn(
    process.execPath,
    [nextBin, "start", "-p", String(config.port), "-H", config.host],
    {
      cwd: WEB_DIR,
      stdio: "inherit",
      env: { ...inheritedEnv(), LLMGW_API_URL: config.apiUrl, NEXT_TELEMETRY_DISABLED: "1" },
    },
  );
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 0)));
}
