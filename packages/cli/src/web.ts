// `llmgw web`: serves the built console, pointing its tRPC proxy at the server. From a checkout it
// runs `next start` on apps/web; a release carries Next's standalone server (web/apps/web/server.js,
// with only the files it needs) and runs that with node, so no Next CLI or install is needed.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { IS_RELEASE, WEB_DIR } from "./paths";
import { inheritedEnv, webConfig } from "./config";

interface WebLaunch {
  args: string[];
  cwd: string;
}

/** The standalone server keeps the workspace's layout under web/, so the console is at apps/web. */
const STANDALONE_APP_DIR = join(WEB_DIR, "apps", "web");

function webLaunch(config: ReturnType<typeof webConfig>): WebLaunch | undefined {
  if (IS_RELEASE) {
    const server = join(STANDALONE_APP_DIR, "server.js");
    return existsSync(server) ? { args: [server], cwd: STANDALONE_APP_DIR } : undefined;
  }
  if (!existsSync(join(WEB_DIR, ".next", "BUILD_ID"))) return undefined;
  const nextBin = createRequire(join(WEB_DIR, "package.json")).resolve("next/dist/bin/next");
  return { args: [nextBin, "start", "-p", String(config.port), "-H", config.host], cwd: WEB_DIR };
}

export async function runWeb(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { port: { type: "string" } }, strict: true });
  const config = webConfig(values.port);
  const launch = webLaunch(config);
  if (!launch) {
    process.stderr.write(
      IS_RELEASE
        ? `llmgw web: this release has no console at ${STANDALONE_APP_DIR}; unpack the release again\n`
        : "llmgw web: the console is not built; run `npm start` once, or `npm run build:web`\n",
    );
    return 1;
  }
  const child = spawn(process.execPath, launch.args, {
    cwd: launch.cwd,
    stdio: "inherit",
    env: {
      ...inheritedEnv(),
      LLMGW_API_URL: config.apiUrl,
      NEXT_TELEMETRY_DISABLED: "1",
      // Next's standalone server takes its address from these; `next start` from its flags.
      PORT: String(config.port),
      HOSTNAME: config.host,
    },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 0)));
}
