// `npm start` as a person runs it: npm, the start script and `llmgw dev` with the server, three
// simulated agents and their sim-engine processes. A SIGTERM sent to the top process alone (a
// service manager, `kill`, a CI runner) must stop the whole tree as Ctrl-C does, engines included,
// which live in process groups of their own. npm hands it to the shell it runs the script in; the
// shell died of it and the rest kept running.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freePort,
  isProcessAlive,
  registerCleanup,
  repoRoot,
  spawnProcess,
  tempDir,
  waitFor,
  type SpawnedProcess,
} from "@llmgw/testing";

interface EngineRecord {
  model: string;
  pid: number;
  pgid: number;
  agent: string;
}

/** Every engine the dev fleet's agents have recorded in their state files. */
function engineRecords(home: string): EngineRecord[] {
  const agentsDir = join(home, "agents");
  let agents: string[] = [];
  try {
    agents = readdirSync(agentsDir);
  } catch {
    return [];
  }
  return agents.flatMap((agent) => {
    try {
      const state = JSON.parse(readFileSync(join(agentsDir, agent, "replicas.json"), "utf8")) as {
        replicas?: Array<Omit<EngineRecord, "agent">>;
      };
      return (state.replicas ?? []).map((record) => ({ ...record, agent }));
    } catch {
      return [];
    }
  });
}

/** npm, the server, three agents and their engines start together; a busy machine needs minutes. */
const START_MS = 240_000;

describe("npm start", () => {
  let home: string;
  let dev: SpawnedProcess;
  const withOutput = (error: Error): never => {
    throw new Error(`${error.message}\n${dev.output()}`);
  };

  beforeAll(async () => {
    home = (await tempDir("dev-home")).path;
    // The engines are not in dev's process group: a failing test must not leave them behind.
    const killEngines = () => {
      for (const { pgid } of engineRecords(home))
        if (pgid > 1)
          try {
            process.kill(-pgid, "SIGKILL");
          } catch {
            // Already gone.
          }
    };
    registerCleanup({ name: "dev engines", stop: async () => killEngines(), killNow: killEngines });
    // A known admin password, so the test can read the fleet through the API.
    writeFileSync(join(home, "dev.json"), JSON.stringify({ adminPassword: "dev-test-password" }));
    // Without the console, so nothing needs building first.
    dev = spawnProcess("npm", ["start", "--", "--no-web"], {
      name: "npm start",
      cwd: repoRoot(),
      env: {
        LLMGW_HOME: home,
        LLMGW_PORT: String(await freePort()),
        LLMGW_AGENT_PORT: String(await freePort()),
        LLMGW_WEB_PORT: String(await freePort()),
      },
    });
  });

  afterAll(async () => {
    await dev?.stop();
  });

  it(
    "places sim-chat's CPU replicas apart, one on the CPU node without cards",
    async () => {
      const chat = await waitFor(
        () => {
          const records = engineRecords(home).filter((r) => r.model === "sim-chat");
          return records.length >= 2 ? records : undefined;
        },
        { what: "two sim-chat engines running", timeoutMs: START_MS, intervalMs: 500 },
      ).catch(withOutput);
      expect(new Set(chat.map((r) => r.agent)).size).toBe(chat.length);
      expect(chat.map((r) => r.agent)).toContain("sim-cpu-a");
    },
    START_MS + 10_000,
  );

  it(
    "stops every engine when only its top process gets SIGTERM",
    async () => {
      await waitFor(() => (engineRecords(home).length >= 3 ? true : undefined), {
        what: "the presets' engines running",
        timeoutMs: START_MS,
        intervalMs: 500,
      }).catch(withOutput);
      const engines = engineRecords(home);
      expect(engines.filter((r) => !isProcessAlive(r.pid))).toEqual([]);
      // npm only, not its group: what a service manager or `kill PID` sends.
      process.kill(dev.pid, "SIGTERM");
      const survivors = await waitFor(
        () => (engines.some((r) => isProcessAlive(r.pid)) ? undefined : []),
        {
          what: "every engine to stop after SIGTERM",
          timeoutMs: 20_000,
        },
      ).catch(() => engines.filter((r) => isProcessAlive(r.pid)));
      expect(survivors.map((r) => `${r.model} pid ${r.pid} on ${r.agent}`)).toEqual([]);
    },
    START_MS + 40_000,
  );
});
