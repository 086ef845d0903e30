// `llmgw dev`: the whole product on one machine — the server on embedded PGlite, the console, and
// a simulated fleet of three agents — with the sign-in printed and written to <home>/dev.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { messageOf } from "@llmgw/domain";
import { randomToken } from "@llmgw/secrets";
import { devConfig, inheritedEnv, type DevConfig } from "./config";
import { startChild, startRestartingChild, stopChildren, type Child } from "./children";
import { explain } from "./ctl/client";
import { devJoin, type DevJoin } from "./dev-join";
import { seedDevModels, type DevModels } from "./dev-models";
import { LLMGW_BIN } from "./paths";

/** The simulated fleet: name and simulation profile. */
export const DEV_FLEET = [
  { name: "sim-h100-a", profile: "h100x8" },
  { name: "sim-l40s-a", profile: "l40sx4" },
  { name: "sim-cpu-a", profile: "cpu" },
] as const;

export interface DevFacts {
  consoleUrl: string;
  apiUrl: string;
  agentUrl: string;
  adminUser: string;
  adminPassword: string;
  /** A /v1 key for the admin, made on the first run that has none. */
  apiKey: string | null;
}

export const DEV_USAGE = `usage: llmgw dev [--no-web]

  --no-web   run the server and the simulated fleet without the console
`;

export async function runDev(argv: string[]): Promise<number> {
  let isWebless: boolean;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { "no-web": { type: "boolean" } },
      strict: true,
    });
    isWebless = values["no-web"] === true;
  } catch (error) {
    process.stderr.write(`llmgw dev: ${messageOf(error)}\n\n${DEV_USAGE}`);
    return 2;
  }
  const config = devConfig();
  mkdirSync(config.homeDir, { recursive: true, mode: 0o700 });
  const facts = devFacts(config);
  const children: Child[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write("llmgw dev: stopping…\n");
    // Agents stop their engines before they exit: give them longer than the default 5 s before
    // SIGKILL, which would leave the engines (in their own process groups) running.
    await stopChildren(children, 20_000);
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));

  const env = { ...inheritedEnv(), LLMGW_HOME: config.homeDir };
  const restarting = (quiet: boolean) => ({
    quiet,
    isStopping: () => stopping,
    log: (line: string) => void process.stderr.write(line),
  });
  const server = startRestartingChild(
    "server",
    [LLMGW_BIN, "server"],
    {
      ...env,
      LLMGW_PORT: String(config.apiPort),
      LLMGW_AGENT_PORT: String(config.agentPort),
      LLMGW_ADMIN_PASSWORD: facts.adminPassword,
    },
    restarting(false),
  );
  children.push(server);
  void server.exited.then((code) => {
    if (!stopping) process.stderr.write(`llmgw dev: the server exited (code ${code}); stopping\n`);
    return shutdown(1);
  });
  // Opening PGlite and migrating takes seconds on an idle machine but near a minute on a busy one.
  if (!(await waitForHttp(`${facts.apiUrl}/healthz`, 180_000)))
    return failed(shutdown, `the server did not answer at ${facts.apiUrl}`);
  if (!isWebless)
    children.push(
      startChild(
        "web",
        [LLMGW_BIN, "web"],
        { ...env, LLMGW_WEB_PORT: String(config.webPort), LLMGW_API_URL: facts.apiUrl },
        false,
      ),
    );
  let joining: DevJoin;
  try {
    const admin = { username: facts.adminUser, password: facts.adminPassword };
    joining = await devJoin(facts.apiUrl, config.homeDir, admin, DEV_FLEET.length);
  } catch (error) {
    return failed(
      shutdown,
      `could not make a join token for the fleet: ${explain(error, facts.apiUrl)}`,
    );
  }
  for (const agent of DEV_FLEET) {
    children.push(startAgent(agent, config, { ...env, ...joinEnv(joining) }, restarting(true)));
  }
  // The presets are added once the fleet has joined, so their first placement sees every node
  // (sim-chat's CPU replicas once both went to the first node to register).
  const models = await seedModels(facts);
  facts.apiKey = models?.apiKey ?? facts.apiKey;
  if (!isWebless && !(await waitForHttp(`${facts.consoleUrl}/sign-in`, 60_000)))
    return failed(shutdown, `the console did not answer at ${facts.consoleUrl}`);

  const isFirstRun = !existsSync(join(config.homeDir, "dev.json"));
  writeFacts(config, facts);
  printBanner(facts, join(config.homeDir, "dev.json"), isFirstRun, models, isWebless);
  await new Promise(() => undefined);
  return 0;
}

/** Read by an agent only while it holds no certificate yet (its first run). */
function joinEnv(joining: DevJoin): NodeJS.ProcessEnv {
  return { LLMGW_JOIN_TOKEN: joining.token, LLMGW_CA_SHA256: joining.caSha256 };
}

function startAgent(
  agent: (typeof DEV_FLEET)[number],
  config: DevConfig,
  env: NodeJS.ProcessEnv,
  restarting: Parameters<typeof startRestartingChild>[3],
): Child {
  const args = [
    LLMGW_BIN,
    "agent",
    "--server",
    `wss://127.0.0.1:${config.agentPort}`,
    "--name",
    agent.name,
    "--simulate",
    agent.profile,
  ];
  return startRestartingChild(
    agent.name,
    args,
    { ...env, LLMGW_AGENT_DATA_DIR: join(config.homeDir, "agents", agent.name) },
    restarting,
  );
}

/** Reuses the admin password of an earlier run: the server only uses it when it makes the admin. */
function devFacts(config: DevConfig): DevFacts {
  const path = join(config.homeDir, "dev.json");
  const previous = existsSync(path)
    ? (JSON.parse(readFileSync(path, "utf8")) as Partial<DevFacts>)
    : {};
  return {
    consoleUrl: `http://127.0.0.1:${config.webPort}`,
    apiUrl: `http://127.0.0.1:${config.apiPort}`,
    agentUrl: `wss://127.0.0.1:${config.agentPort}`,
    adminUser: "admin",
    adminPassword: previous.adminPassword ?? randomToken(12),
    apiKey: previous.apiKey ?? null,
  };
}

function writeFacts(config: DevConfig, facts: DevFacts): void {
  const path = join(config.homeDir, "dev.json");
  writeFileSync(path, `${JSON.stringify(facts, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** A demo without models is still a demo: a failure here is reported, never fatal. */
async function seedModels(facts: DevFacts): Promise<DevModels | null> {
  try {
    return await seedDevModels(
      facts.apiUrl,
      facts.adminUser,
      facts.adminPassword,
      facts.apiKey === null,
      DEV_FLEET.map((agent) => agent.name),
    );
  } catch (error) {
    process.stderr.write(
      `llmgw dev: could not add the simulated models: ${explain(error, facts.apiUrl)}\n`,
    );
    return null;
  }
}

function modelsLine(models: DevModels | null): string {
  if (!models) return "none (adding the simulated presets failed; see above)";
  if (models.models.length === 0) return "none yet (llmgw ctl model add PRESET)";
  const added = models.added.length > 0 ? "added now from presets; " : "";
  return `${models.models.join(", ")}   (${added}llmgw ctl models)`;
}

function printBanner(
  facts: DevFacts,
  factsPath: string,
  isFirstRun: boolean,
  models: DevModels | null,
  isWebless: boolean,
): void {
  // The password is printed once; afterwards it is only in the 0600 facts file.
  const password = isFirstRun
    ? facts.adminPassword
    : `the one printed on the first run (see ${factsPath})`;
  process.stdout.write(`
  llmgw is running (simulated fleet: ${DEV_FLEET.map((a) => a.name).join(", ")})

    console   ${isWebless ? "off (--no-web)" : facts.consoleUrl}
    sign in   user ${facts.adminUser}, password ${password}
    API       ${facts.apiUrl}   (llmgw ctl login --server ${facts.apiUrl})
    agents    ${facts.agentUrl}
    models    ${modelsLine(models)}
    API key   ${facts.apiKey ?? "none (llmgw ctl keys create --owner user:admin --models '*')"}

  Stream a chat completion through the OpenAI-compatible /v1:

    ${curlExample(facts, models)}

  These facts are also in ${factsPath}. Press Ctrl-C to stop everything.

`);
}

function curlExample(facts: DevFacts, models: DevModels | null): string {
  const model = models?.models[0] ?? "sim-chat";
  const body = JSON.stringify({
    model,
    stream: true,
    messages: [{ role: "user", content: "Say hello" }],
  });
  return `curl -N ${facts.apiUrl}/v1/chat/completions -H "Authorization: Bearer ${facts.apiKey ?? "$LLMGW_API_KEY"}" -H "Content-Type: application/json" -d '${body}'`;
}

async function waitForHttp(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { redirect: "manual" });
      if (res.status < 500) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

async function failed(shutdown: (code: number) => Promise<void>, why: string): Promise<number> {
  process.stderr.write(`llmgw dev: ${why}\n`);
  await shutdown(1);
  return 1;
}
